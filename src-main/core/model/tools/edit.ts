import { crlfOnly, toCrlf, toLf } from '../../store/line-breaks.js'
import { readTextFile } from '../../store/regular-file.js'
import { isAbsolute } from 'node:path'
import { type AgentTool, stringArg, ToolInputError, inputSchema, params, writeOverRead } from './types.js'

export const editTool: AgentTool = {
  name: 'Edit',
  description:
    'Replaces old_string with new_string in a file. old_string must occur exactly once unless replace_all is true. file_path must be absolute.',
  input_schema: inputSchema(
    {
      file_path: params.string(),
      old_string: params.string(),
      new_string: params.string(),
      replace_all: params.boolean(),
    },
    ['file_path', 'old_string', 'new_string'],
  ),
  async run(input, ctx) {
    const filePath = stringArg(input, 'file_path', true)
    const oldArg = stringArg(input, 'old_string', true)
    const newArg = stringArg(input, 'new_string', true)
    if (!isAbsolute(filePath)) throw new ToolInputError('file_path must be absolute')
    if (oldArg === newArg) throw new ToolInputError('old_string and new_string are identical')
    const read = await readTextFile(filePath)
    // A file saved with CRLF is matched as the model saw it (Read shows its lines without CR) and keeps CRLF.
    const crlf = crlfOnly(read)
    const text = crlf ? toLf(read) : read
    const oldString = crlf ? toLf(oldArg) : oldArg
    const newString = crlf ? toLf(newArg) : newArg
    const count = oldString === '' ? 0 : text.split(oldString).length - 1
    if (count === 0) throw new ToolInputError('old_string was not found in the file')
    if (count > 1 && input.replace_all !== true) {
      throw new ToolInputError(`old_string occurs ${count} times; give more context or set replace_all`)
    }
    const next =
      input.replace_all === true
        ? text.split(oldString).join(newString)
        : text.replace(oldString, () => newString)
    await writeOverRead(ctx, filePath, read, crlf ? toCrlf(next) : next)
    return { content: `Edited ${filePath}`, writtenPath: filePath }
  },
}
