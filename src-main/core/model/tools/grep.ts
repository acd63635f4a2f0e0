import { messageOf, orIfUnreadable } from '../../../../src-shared/errors.js'
import { stat } from 'node:fs/promises'
import { readRegularFile } from '../../store/regular-file.js'
import { RE2JS } from 're2js'
import { globFiles } from './glob.js'
import { type AgentTool, stringArg, ToolInputError, resolvePathArg, inputSchema, params } from './types.js'

const MAX_FILE_BYTES = 2 * 1024 * 1024
const MAX_OUTPUT_LINES = 250

export const grepTool: AgentTool = {
  name: 'Grep',
  description:
    'Searches file contents with a regular expression (RE2 syntax, as ripgrep: no lookaround or backreferences). output_mode: "files_with_matches" (default), "content" (matching lines with numbers) or "count". Optional glob filter and "-i" for case-insensitive.',
  input_schema: inputSchema(
    {
      pattern: params.string(),
      path: params.string('File or directory to search (default: working directory)'),
      glob: params.string('Only files matching this glob, e.g. "*.md"'),
      output_mode: params.oneOf(['files_with_matches', 'content', 'count']),
      '-i': params.boolean(),
    },
    ['pattern'],
  ),
  async run(input, ctx) {
    const pattern = stringArg(input, 'pattern', true)
    const mode = stringArg(input, 'output_mode') ?? 'files_with_matches'
    // RE2 matches in time linear in the text, whatever the pattern: a pattern the model wrote (or
    // a transcript talked it into), such as `(a+)+$`, must not hold the process that runs the agent.
    let re: RE2JS
    try {
      re = RE2JS.compile(pattern, input['-i'] === true ? RE2JS.CASE_INSENSITIVE : 0)
    } catch (e) {
      throw new ToolInputError(
        `invalid regular expression (RE2 syntax, as ripgrep: no lookaround or backreferences): ${messageOf(e)}`,
      )
    }
    const where = stringArg(input, 'path')
    const root = resolvePathArg(where, ctx)
    const st = await stat(root)
    const globPattern = stringArg(input, 'glob')
    const files = st.isFile() ? [root] : await globFiles(globPattern ? `**/${globPattern}` : '**/*', root)
    const out: string[] = []
    let matchedFiles = 0
    for (const file of files.sort()) {
      if (ctx.signal?.aborted) break
      // Not a regular file, over the size limit or unreadable: a file-system error, skipped.
      const text = await orIfUnreadable(readRegularFile(file, MAX_FILE_BYTES), null)
      if (text === null || text.includes('\0')) continue
      const lines = text.split('\n')
      const hits = lines.flatMap((l, i) => (re.matcher(l).find() ? [i] : []))
      if (!hits.length) continue
      matchedFiles++
      if (mode === 'files_with_matches') out.push(file)
      else if (mode === 'count') out.push(`${file}:${hits.length}`)
      else for (const i of hits) out.push(`${file}:${i + 1}:${lines[i]}`)
      if (out.length >= MAX_OUTPUT_LINES) break
    }
    if (!out.length) return { content: 'No matches found' }
    const shown = out.slice(0, MAX_OUTPUT_LINES)
    return {
      content:
        shown.join('\n') +
        (out.length > MAX_OUTPUT_LINES || matchedFiles > shown.length ? '\n(results truncated)' : ''),
    }
  },
}
