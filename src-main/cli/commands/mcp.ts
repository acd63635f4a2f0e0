import { createMcpServer } from '../../agents/mcp-server.js'
import { BoundedStdioServerTransport } from '../../agents/mcp-stdio.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { memdirVersion } from '../../host/integrations/version.js'
import type { CliIO } from '../io.js'

/** `memdir mcp`: serves the project's memory over stdio until the client closes stdin. */
export async function mcpCommand(ctx: ProjectContext, io: CliIO, signal: AbortSignal): Promise<number> {
  const server = createMcpServer(ctx, memdirVersion())
  const transport = new BoundedStdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve()
    process.stdin.once('end', () => resolve())
    signal.addEventListener('abort', () => resolve(), { once: true })
  })
  await server.connect(transport)
  io.stderr(`memdir mcp: serving ${ctx.projectRoot} on stdio\n`)
  await closed
  await server.close()
  return 0
}
