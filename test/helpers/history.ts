import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { HistoryStore } from '../../src-main/core/history/history-store.js'
import { tempDir, writeFile } from './temp-env.js'

/** Every memory file under `dir` with its text, for before/after comparisons. */
export const snapshotOf = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  )

/** A memory dir holding `files`, and a history store beside it. */
export function memDirWith(files: Record<string, string>) {
  const root = tempDir()
  const memoryDir = join(root, 'memory') + '/'
  mkdirSync(memoryDir)
  for (const [f, c] of Object.entries(files)) writeFile(join(memoryDir, f), c)
  return { root, memoryDir, history: new HistoryStore(join(root, 'app-data', 'history')) }
}
