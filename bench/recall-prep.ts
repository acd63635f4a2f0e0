import { MemoryIndex } from '../src-main/core/store/memory-index.js'
import { formatMemoryManifest } from '../src-main/core/store/manifest.js'
import { scanMemoryFiles, type MemoryHeader } from '../src-main/core/store/scan.js'
import {
  buildSelectorUserMessage,
  SELECTOR_SCHEMA,
  SELECTOR_SYSTEM_PROMPT,
} from '../src-main/core/recall/selector-prompt.js'
import { benchDir, generateMemories, ratio, table, timeIt } from './lib.js'

/** Everything recall does before the model call: candidates → filter → manifest → request body. */
function buildRequest(headers: readonly MemoryHeader[], surfaced: Set<string>) {
  const candidates = headers.filter((h) => !surfaced.has(h.filePath))
  return JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 256,
    system: SELECTOR_SYSTEM_PROMPT,
    messages: [
      {
        role: 'user',
        content: buildSelectorUserMessage('why does the deploy fail', formatMemoryManifest(candidates), [
          'Bash',
        ]),
      },
    ],
    output_config: { format: { type: 'json_schema', schema: SELECTOR_SCHEMA } },
  })
}

export async function benchRecallPrep(sizes = [200, 20000]): Promise<void> {
  console.log('\n## bench/recall-prep — scan + filter + manifest + request build (no model call)')
  const rows: Record<string, string | number>[] = []
  for (const n of sizes) {
    const { dir, cleanup } = benchDir(`recall${n}`)
    try {
      generateMemories(dir, n)
      const surfaced = new Set<string>()
      const cold = await timeIt(
        async () => buildRequest(await scanMemoryFiles(dir), surfaced),
        n >= 20000 ? 3 : 7,
      )
      const index = new MemoryIndex(dir)
      await index.load()
      const warm = await timeIt(async () => {
        await index.update(['memory_00003.md'])
        return buildRequest(await index.list(200), surfaced)
      }, 7)
      rows.push({
        files: n,
        'full scan ms': cold.toFixed(1),
        'indexed ms (1 changed)': warm.toFixed(2),
        'indexed/full': ratio(warm, cold),
      })
    } finally {
      cleanup()
    }
  }
  table(rows)
}
