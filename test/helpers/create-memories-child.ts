/**
 * Saves N memories into a memory dir as fast as it can, to race another process doing the same.
 * argv: memoryDir, a name prefix, N.
 */
import { createMemory } from '../../src-main/core/store/memory-files.js'

const [memoryDir, prefix, n] = process.argv.slice(2) as [string, string, string]
await Promise.all(
  Array.from({ length: Number(n) }, (_, i) =>
    createMemory(memoryDir, {
      name: `${prefix} ${i}`,
      description: `memory ${i} of ${prefix}`,
      type: 'project',
      body: `${prefix} ${i}\n`,
    }),
  ),
)
