import { readTextFile } from '../store/regular-file.js'
import { relative, sep } from 'node:path'
import { readIfExists } from '../store/atomic-write.js'
import { editTool } from '../model/tools/edit.js'
import { readTool } from '../model/tools/read.js'
import { type AgentTool, refuseUnsafeWrite, stringArg, ToolInputError } from '../model/tools/types.js'
import { writeTool } from '../model/tools/write.js'

export interface ProposedFile {
  /** Relative to the memory dir. */
  path: string
  /** Content on disk when proposed (null: no file). */
  before: string | null
  /** Proposed content (null: delete). */
  after: string | null
}

/**
 * Review mode: the same tools, but Write and Edit land in an in-memory overlay instead of the
 * memory dir, and Read sees the overlay. Nothing on disk changes until a proposal is approved.
 */
export function createOverlayTools(memoryDir: string, base: readonly AgentTool[]) {
  const overlay = new Map<string, string>()
  const current = async (path: string) =>
    overlay.has(path) ? (overlay.get(path) as string) : readTextFile(path)
  const wrapped: Record<string, AgentTool> = {
    Read: {
      ...readTool,
      async run(input, ctx) {
        const path = stringArg(input, 'file_path', true)
        if (!overlay.has(path)) return readTool.run(input, ctx)
        const lines = (overlay.get(path) as string).split('\n')
        return {
          content:
            lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n') || '(the file is empty)',
        }
      },
    },
    Write: {
      ...writeTool,
      async run(input, ctx) {
        const path = stringArg(input, 'file_path', true)
        const content = stringArg(input, 'content', true)
        const before = await readIfExists(path)
        await refuseUnsafeWrite(path, before, content)
        overlay.set(path, ctx.stamp ? ctx.stamp(path, before, content) : content)
        return { content: `Proposed ${path} (review mode: saved for the user's approval)`, writtenPath: path }
      },
    },
    Edit: {
      ...editTool,
      async run(input, ctx) {
        const path = stringArg(input, 'file_path', true)
        const oldString = stringArg(input, 'old_string', true)
        const newString = stringArg(input, 'new_string', true)
        const text = await current(path)
        const count = oldString === '' ? 0 : text.split(oldString).length - 1
        if (count === 0) throw new ToolInputError('old_string was not found in the file')
        if (count > 1 && input.replace_all !== true)
          throw new ToolInputError(`old_string occurs ${count} times`)
        const next =
          input.replace_all === true
            ? text.split(oldString).join(newString)
            : text.replace(oldString, () => newString)
        // Against what is on disk: a secret split over two proposed edits is still caught.
        const onDisk = await readIfExists(path)
        await refuseUnsafeWrite(path, onDisk, next)
        overlay.set(path, ctx.stamp ? ctx.stamp(path, onDisk, next) : next)
        return { content: `Proposed an edit of ${path} (review mode)`, writtenPath: path }
      },
    },
  }
  return {
    tools: base.map((t) => wrapped[t.name] ?? t),
    /** The proposed changes; an emptied .md is a proposed deletion. */
    async changes(): Promise<ProposedFile[]> {
      const out: ProposedFile[] = []
      for (const [abs, content] of overlay) {
        const before = await readIfExists(abs)
        const after = content === '' && abs.endsWith('.md') ? null : content
        if (before === after) continue
        out.push({ path: relative(memoryDir, abs).split(sep).join('/'), before, after })
      }
      return out.sort((a, b) => a.path.localeCompare(b.path))
    },
  }
}
