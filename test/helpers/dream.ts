import { randomUUID } from 'node:crypto'
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ModelClient } from '../../src-main/core/model/client.js'
import { createAutoDream, type DreamDeps, type DreamEvent } from '../../src-main/core/dream/auto-dream.js'
import { lockPath } from '../../src-main/core/dream/lock.js'
import { tempDir } from './temp-env.js'

/** A memory dir and `sessions` transcripts (plus a subagent's, which never counts) for autoDream. */
export function dreamSetup(client: ModelClient | undefined, over: Partial<DreamDeps> = {}, sessions = 5) {
  const root = tempDir()
  const memoryDir = join(root, 'memory') + '/'
  const transcriptDir = join(root, 'transcripts')
  mkdirSync(memoryDir)
  mkdirSync(transcriptDir)
  for (let i = 0; i < sessions; i++) writeFileSync(join(transcriptDir, `${randomUUID()}.jsonl`), '{}\n')
  writeFileSync(join(transcriptDir, 'agent-1234.jsonl'), '{}\n') // subagent transcripts never count
  const events: DreamEvent[] = []
  const dream = createAutoDream({
    memoryDir,
    transcriptDir,
    snapshotDir: join(root, 'app-data', 'snapshots'),
    client,
    enabled: () => ({ ok: true }),
    systemPrompt: async () => 'main system prompt',
    onEvent: (e) => events.push(e),
    ...over,
  })
  return { root, memoryDir, transcriptDir, events, dream }
}

/** A consolidation lock held by `pid`, last touched `ageMs` ago. */
export function setDreamLock(memoryDir: string, pid: number, ageMs: number) {
  writeFileSync(lockPath(memoryDir), `${pid}\n`)
  const t = (Date.now() - ageMs) / 1000
  utimesSync(lockPath(memoryDir), t, t)
}
