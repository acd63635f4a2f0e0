import { existsSync } from 'node:fs'
import { createHost } from '../../host/app/host.js'
import { packageRoot, rendererDir, resourcesDir } from '../../host/integrations/package-paths.js'
import { startWebServer } from '../../web/web-server.js'
import { type CliIO, UsageError } from '../io.js'
import { errnoOf } from '../../../src-shared/errors.js'

/** `memdir web`: the desktop UI in a browser, served on 127.0.0.1 with a per-launch token. */
export async function webCommand(
  io: CliIO,
  opts: { port?: string; cwd?: string },
  signal: AbortSignal,
): Promise<number> {
  const port = opts.port === undefined ? 0 : Number(opts.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be a port number')
  const root = packageRoot(import.meta.url)
  if (!existsSync(rendererDir(root))) throw new Error('the UI is not built yet — run `npm run build` first')
  const host = await createHost({ env: io.env, projectRoot: opts.cwd, resourcesDir: resourcesDir(root) })
  // A port that is taken ends the command: the host's watchers and timers must not keep it running.
  const web = await startWebServer({ host, rendererDir: rendererDir(root), port }).catch(
    async (e: unknown) => {
      await host.close()
      if (errnoOf(e) === 'EADDRINUSE')
        throw new UsageError(
          `port ${port} is in use: pick another with --port, or leave it out for a free one`,
        )
      throw e
    },
  )
  io.stdout(
    `Memdir is running at ${web.url}\n(open this exact URL: it carries the access token; Ctrl-C to stop)\n`,
  )
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    signal.addEventListener('abort', () => resolve(), { once: true })
  })
  await web.close()
  await host.close()
  return 0
}
