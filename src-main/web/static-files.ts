import { orIfUnreadable, rethrowUnless } from '../../src-shared/errors.js'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

function decodePath(p: string): string | undefined {
  try {
    return decodeURIComponent(p)
  } catch (e) {
    rethrowUnless(e instanceof URIError, e)
    return undefined // malformed percent-encoding: no such file
  }
}

/** A file under `root` for a URL path, or undefined (no traversal out of root, no NUL, bad encoding). */
export async function readStatic(
  root: string,
  urlPath: string,
): Promise<{ body: Buffer; type: string } | undefined> {
  const decoded = decodePath(urlPath.split('?')[0] ?? '/')
  if (decoded === undefined || decoded.includes('\0')) return undefined
  const clean = normalize(decoded).replace(/^([\\/])+/, '')
  const path = join(root, clean || 'index.html')
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep) && path !== root) return undefined
  const st = await orIfUnreadable(stat(path), null)
  const file = st?.isDirectory() ? join(path, 'index.html') : path
  const body = await orIfUnreadable(readFile(file), null)
  if (!body) return undefined
  return { body, type: TYPES[extname(file)] ?? 'application/octet-stream' }
}
