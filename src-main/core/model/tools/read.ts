import { cutText } from '../../../../src-shared/unicode.js'
import { readRegularFile } from '../../store/regular-file.js'
import { type AgentTool, numberArg, stringArg, resolvePathArg, inputSchema, params } from './types.js'

const DEFAULT_LIMIT = 2000
/** Larger files are refused: the whole text is read to count its lines. */
const MAX_READ_BYTES = 32 * 1024 * 1024
const MAX_LINE = 2000

export const readTool: AgentTool = {
  name: 'Read',
  description:
    'Reads a text file. file_path must be absolute. Returns lines numbered from 1 (cat -n style); use offset and limit for long files.',
  input_schema: inputSchema(
    {
      file_path: params.string('Absolute path of the file'),
      offset: params.number('First line to read (1-based)'),
      limit: params.number('How many lines to read'),
    },
    ['file_path'],
  ),
  async run(input, ctx) {
    const filePath = stringArg(input, 'file_path', true)
    const path = resolvePathArg(filePath, ctx)
    const offset = Math.max(1, Math.floor(numberArg(input, 'offset') ?? 1))
    const limit = Math.max(1, Math.floor(numberArg(input, 'limit') ?? DEFAULT_LIMIT))
    const text = await readRegularFile(path, MAX_READ_BYTES)
    if (text.length === 0) return { content: '(the file is empty)' }
    // Lines as an editor shows them: a CRLF file's carriage returns are no part of them.
    const lines = text.split(/\r?\n/)
    const slice = lines.slice(offset - 1, offset - 1 + limit)
    const numbered = slice.map(
      (l, i) => `${String(offset + i).padStart(6)}\t${l.length > MAX_LINE ? cutText(l, MAX_LINE) + '…' : l}`,
    )
    const more =
      offset - 1 + limit < lines.length ? `\n… ${lines.length - (offset - 1 + limit)} more lines` : ''
    return { content: numbered.join('\n') + more }
  },
}
