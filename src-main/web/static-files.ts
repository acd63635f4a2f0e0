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

/** A file under `root` for a URL path, or undefined (no traversal out of root). */
export async function readStatic(
  root: string,
  urlPath: string,
): Promise<{ body: Buffer; type: string } | undefined> {
  const clean = normalize(decodeURIComponent(urlPath.split('?')[0] ?? '/')).replace(/^([\\/])+/, '')
  const path = join(root, clean || 'index.html')
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep) && path !== root) return undefined
  const st = await stat(path).catch(() => null)
  const file = st?.isDirectory() ? join(path, 'index.html') : path
  const body = await readFile(file).catch(() => null)
  if (!body) return undefined
  return { body, type: TYPES[extname(file)] ?? 'application/octet-stream' }
}
