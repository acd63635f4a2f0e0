import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The installed package root (holds out/ and resources/), found from a bundled module's URL. */
export function packageRoot(fromUrl: string): string {
  let dir = dirname(fileURLToPath(fromUrl))
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'resources'))) return dir
    const parent = dirname(dir)
    if (parent === dir) throw new Error('cannot find the memdir package root')
    dir = parent
  }
}

export function rendererDir(root: string): string {
  return join(root, 'out', 'renderer')
}

export function resourcesDir(root: string): string {
  return join(root, 'resources')
}
