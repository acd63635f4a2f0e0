import { orIfUnreadable } from '../../../../src-shared/errors.js'
import { stat } from 'node:fs/promises'
import { glob } from 'tinyglobby'
import { type AgentTool, stringArg, resolvePathArg, inputSchema, params } from './types.js'

const MAX_RESULTS = 100

export async function globFiles(pattern: string, root: string): Promise<string[]> {
  return glob(pattern, {
    cwd: root,
    absolute: true,
    dot: true,
    onlyFiles: true,
    ignore: ['**/node_modules/**', '**/.git/**'],
  })
}

export const globTool: AgentTool = {
  name: 'Glob',
  description:
    'Finds files by glob pattern (e.g. "**/*.md") under path (default: the working directory), newest first.',
  input_schema: inputSchema({ pattern: params.string(), path: params.string('Directory to search in') }, [
    'pattern',
  ]),
  async run(input, ctx) {
    const pattern = stringArg(input, 'pattern', true)
    const dir = stringArg(input, 'path')
    const root = resolvePathArg(dir, ctx)
    const files = await globFiles(pattern, root)
    const withTimes = await Promise.all(
      files.map(async (f) => ({ f, t: (await orIfUnreadable(stat(f), null))?.mtimeMs ?? 0 })),
    )
    withTimes.sort((a, b) => b.t - a.t)
    const shown = withTimes.slice(0, MAX_RESULTS).map((x) => x.f)
    if (!shown.length) return { content: 'No files found' }
    const more = files.length > MAX_RESULTS ? `\n(${files.length - MAX_RESULTS} more not shown)` : ''
    return { content: shown.join('\n') + more }
  },
}
