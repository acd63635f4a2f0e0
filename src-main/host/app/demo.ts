import { existsSync } from 'node:fs'
import { cp, mkdir } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The demo workspace a machine with no Claude Code memory opens: sample memories copied once from
 * `resources/demo` into Memdir's data dir, and an empty project folder beside them. Returns the
 * project root and the memory dir to open it with (an override, as Claude Code's own env allows).
 */
export async function prepareDemo(dataDir: string, resourcesDir: string | undefined) {
  const root = join(dataDir, 'demo')
  const memoryDir = join(root, 'memory')
  if (!existsSync(memoryDir) && resourcesDir) {
    await mkdir(root, { recursive: true })
    await cp(join(resourcesDir, 'demo', 'memory'), memoryDir, { recursive: true })
  }
  await mkdir(join(root, 'project'), { recursive: true })
  return { projectRoot: join(root, 'project'), memoryDir }
}
