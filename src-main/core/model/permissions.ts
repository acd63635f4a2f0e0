import { existsSync } from 'node:fs'
import { isAbsolute, normalize, relative, sep } from 'node:path'
import { MemdirError } from '../../../src-shared/errors.js'
import { memoryNameProblem } from '../../../src-shared/memory-names.js'
import { isPathInside } from '../paths/auto-mem-path.js'
import { resolveContainedPath } from '../store/contained-path.js'
import { twinNameProblem } from '../store/twin-names.js'
import { checkReadOnlyCommand } from './bash-readonly.js'

export type PermissionDecision = { behavior: 'allow' } | { behavior: 'deny'; message: string }
export type CanUseTool = (toolName: string, input: Record<string, unknown>) => Promise<PermissionDecision>

const deny = (message: string): PermissionDecision => ({ behavior: 'deny', message })
const READ_TOOLS = new Set(['Read', 'Grep', 'Glob'])
const WRITE_TOOLS = new Set(['Edit', 'Write'])

/**
 * The permission hook shared by extraction and dream (SPEC §7): Read/Grep/Glob anywhere,
 * Bash only when the parsed command is read-only, Edit/Write only inside the memory dir
 * (normalized, symlinks resolved; a new file named by the one name rule), everything else
 * refused. Reasons go back to the model.
 */
export function createAutoMemCanUseTool(memoryDir: string): CanUseTool {
  const root = normalize(memoryDir)
  return async (toolName, input) => {
    if (READ_TOOLS.has(toolName)) return { behavior: 'allow' }
    if (toolName === 'Bash') {
      const command = input.command
      if (typeof command !== 'string') return deny('Bash needs a "command" string')
      const v = checkReadOnlyCommand(command)
      return v.readOnly
        ? { behavior: 'allow' }
        : deny(`Only read-only shell commands are allowed for memory work: ${v.reason}.`)
    }
    if (WRITE_TOOLS.has(toolName)) {
      const filePath = input.file_path
      if (typeof filePath !== 'string' || filePath.includes('\0'))
        return deny(`${toolName} needs a "file_path" string`)
      if (!isAbsolute(filePath))
        return deny(`${toolName} needs an absolute file_path inside the memory directory ${root}`)
      const target = normalize(filePath)
      if (!isPathInside(target, root) || target === normalize(root)) {
        return deny(
          `${toolName} is only allowed inside the memory directory ${root}; ${filePath} is outside it.`,
        )
      }
      try {
        await resolveContainedPath(root, relative(root, target))
      } catch (e) {
        if (e instanceof MemdirError) return deny(`${toolName} refused: ${e.message}`)
        throw e
      }
      // A file it creates gets a name every client and file system takes (src-shared/memory-names.ts).
      const rel = relative(root, target).split(sep).join('/')
      if (!existsSync(target)) {
        const problem = memoryNameProblem(rel)?.message ?? (await twinNameProblem(root, rel))
        if (problem) return deny(`${toolName} refused: ${problem}.`)
      }
      // Secrets are refused by Write and Edit themselves, against the whole file they would leave.
      return { behavior: 'allow' }
    }
    if (toolName.startsWith('mcp__')) return deny('MCP tools are not available to memory agents.')
    if (toolName === 'Agent' || toolName === 'Task') return deny('Memory agents cannot start other agents.')
    return deny(`The ${toolName} tool is not available to memory agents.`)
  }
}
