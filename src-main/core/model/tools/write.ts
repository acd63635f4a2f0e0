import { isAbsolute } from 'node:path'
import { readIfExists } from '../../store/atomic-write.js'
import { crlfLike } from '../../store/line-breaks.js'
import { type AgentTool, stringArg, ToolInputError, inputSchema, params, writeOverRead } from './types.js'

export const writeTool: AgentTool = {
  name: 'Write',
  description:
    'Writes a file (creating parent directories), replacing it if it exists. file_path must be absolute.',
  input_schema: inputSchema({ file_path: params.string(), content: params.string() }, [
    'file_path',
    'content',
  ]),
  async run(input, ctx) {
    const filePath = stringArg(input, 'file_path', true)
    const content = stringArg(input, 'content', true)
    if (!isAbsolute(filePath)) throw new ToolInputError('file_path must be absolute')
    const before = await readIfExists(filePath)
    // A file saved with CRLF keeps CRLF when the model rewrites it in LF.
    await writeOverRead(ctx, filePath, before, crlfLike(content, before))
    return { content: `Wrote ${filePath}`, writtenPath: filePath }
  },
}
