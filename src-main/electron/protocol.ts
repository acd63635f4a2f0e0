import { net, protocol } from 'electron'
import { join, normalize, sep } from 'node:path'
import { pathToFileURL } from 'node:url'

export const APP_SCHEME = 'app'
export const APP_ORIGIN = 'app://memdir'

/** Must run before app ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ])
}

/** Serves the built renderer from app://memdir/… (not file://), refusing paths outside it. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (req) => {
    const url = new URL(req.url)
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^([\\/])+/, '') || 'index.html'
    const file = join(rendererDir, rel)
    if (url.host !== 'memdir' || !file.startsWith(rendererDir + sep))
      return new Response('not found', { status: 404 })
    return net.fetch(pathToFileURL(file).toString())
  })
}
