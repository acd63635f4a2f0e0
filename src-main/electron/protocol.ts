import { isFsError, rethrowUnless } from '../../src-shared/errors.js'
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

/** The file under `rendererDir` an app:// URL names, or undefined (outside it, malformed, NUL). */
export function rendererFileFor(rendererDir: string, requestUrl: string): string | undefined {
  let url: URL
  let path: string
  try {
    url = new URL(requestUrl)
    path = decodeURIComponent(url.pathname)
  } catch (e) {
    rethrowUnless(e instanceof TypeError || e instanceof URIError, e)
    return undefined
  }
  if (url.host !== 'memdir' || path.includes('\0')) return undefined
  const file = join(rendererDir, normalize(path).replace(/^([\\/])+/, '') || 'index.html')
  return file.startsWith(rendererDir + sep) ? file : undefined
}

/** Serves the built renderer from app://memdir/… (not file://), refusing paths outside it. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (req) => {
    const file = rendererFileFor(rendererDir, req.url)
    if (!file) return new Response('not found', { status: 404 })
    try {
      return await net.fetch(pathToFileURL(file).toString())
    } catch (e) {
      // A built file that is not there (net.fetch of a file:// URL rejects with a TypeError).
      rethrowUnless(e instanceof TypeError || isFsError(e), e)
      return new Response('not found', { status: 404 })
    }
  })
}
