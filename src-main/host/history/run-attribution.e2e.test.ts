import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { held, reply, text, toolUse } from '../../../test/fake-anthropic/server.js'
import { fakeModel } from '../../../test/helpers/model.js'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { createAutoDream, type DreamEvent } from '../../core/dream/auto-dream.js'
import { initExtractMemories, type ExtractionEvent } from '../../core/extract/extract-memories.js'
import { HistoryStore } from '../../core/history/history-store.js'
import { undoRun } from '../../core/history/restore.js'
import { MemoryIndex } from '../../core/store/memory-index.js'
import { ChangeRecorder } from './change-recorder.js'
import { createMemoriesService } from '../memories/service.js'

const recorders: ChangeRecorder[] = []
afterEach(async () => {
  while (recorders.length) await recorders.pop()!.close()
})

const memo = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${name} facts\ntype: project\n---\n\n${body}\n`

/** The app's pieces for one memory dir: watcher-fed recorder, index, history, the editor's CRUD. */
async function workspace() {
  const root = tempDir()
  const memoryDir = join(root, 'memory') + '/'
  mkdirSync(memoryDir)
  for (const f of ['a', 'b', 'c', 'd']) writeFileSync(join(memoryDir, `${f}.md`), memo(f, `${f} original`))
  const history = new HistoryStore(join(root, 'history'))
  const index = new MemoryIndex(memoryDir)
  await index.load()
  const flushed = new Set<string>()
  const recorder = new ChangeRecorder({
    memoryDir,
    index,
    history,
    onChanged: (paths) => paths.forEach((p) => flushed.add(p)),
    onHistoryError: (e) => {
      throw e
    },
  })
  recorders.push(recorder)
  await recorder.start()
  const { reconcileHistory } = await import('../../core/history/recorder.js')
  await reconcileHistory(history, memoryDir, 'external')
  const crud = createMemoriesService(
    { projectRoot: root, env: {} },
    {
      memoryDir,
      agentRoot: join(root, 'agents'),
      index,
      writer: (who) => recorder.writer(who),
      as: { author: 'user' },
      style: async () => ({ format: 'flat', stamps: [] }),
    },
  )
  return {
    memoryDir,
    history,
    recorder,
    crud,
    read: (f: string) => readFileSync(join(memoryDir, f), 'utf8'),
    /** Resolves once the recorder has flushed each path to the index and history. */
    recorded: (...paths: string[]) =>
      vi.waitFor(() => expect([...flushed]).toEqual(expect.arrayContaining(paths)), { timeout: 5000 }),
  }
}

describe('"Undo this run" undoes only the run', () => {
  it('a user edit and an external write made during an extraction stay when the run is undone', async () => {
    const ws = await workspace()
    // The model's answer is held: the user and Claude Code write while the run waits for it.
    const firstAnswer = held(
      reply(
        toolUse('Write', { file_path: join(ws.memoryDir, 'a.md'), content: memo('a', 'a by extraction') }),
      ),
    )
    const { client } = await fakeModel([firstAnswer.step, reply(text('Saved.'))])
    const events: ExtractionEvent[] = []
    const extractor = initExtractMemories({
      memoryDir: ws.memoryDir,
      client,
      gates: () => [{ ok: true }],
      systemPrompt: async () => 'main agent',
      recordFor: (runId) => ws.recorder.writer({ author: 'extraction', runId }),
      onEvent: (e) => events.push(e),
    })
    const run = extractor.executeExtractMemories({
      messages: [{ uuid: 'u1', role: 'user', content: [{ type: 'text', text: 'remember things' }] }],
    })
    await firstAnswer.arrived
    const b = await ws.crud.read('b.md')
    await ws.crud.update(
      'b.md',
      { name: 'b', description: 'b facts', type: 'project', body: 'b by the user\n' },
      b.hash,
    )
    writeFileSync(join(ws.memoryDir, 'c.md'), memo('c', 'c by Claude Code'))
    await ws.recorded('b.md', 'c.md')
    firstAnswer.release()
    await run
    await ws.recorded('a.md')
    const runId = events.find((e) => e.type === 'wrote')!.runId
    const credited = (await ws.history.list({ runId })).map((e) => e.path)
    expect(credited).toEqual(['a.md'])
    await undoRun(ws.history, ws.memoryDir, runId, {
      record: ws.recorder.writer({ author: 'user', runId: `undo-${runId}` }),
    })
    expect(ws.read('a.md')).toContain('a original')
    expect(ws.read('b.md')).toContain('b by the user')
    expect(ws.read('c.md')).toContain('c by Claude Code')
    const authors = Object.fromEntries(
      (await ws.history.list())
        .filter((e) => e.change !== 'baseline')
        .map((e) => [`${e.path}:${e.author}`, e.change]),
    )
    expect(authors).toMatchObject({
      'b.md:user': 'modify',
      'c.md:external': 'modify',
      'a.md:extraction': 'modify',
    })
    expect(authors).not.toHaveProperty(['a.md:external'])
  })

  it('an extraction during a dream: each run keeps its own paths, and undoing one leaves the other', async () => {
    const ws = await workspace()
    const transcripts = tempDir()
    // Interleaved by held answers: the dream starts, the extraction starts, the dream deletes d.md,
    // the extraction writes a.md, then the dream merges into b.md.
    const extWrite = held(
      reply(
        toolUse('Write', { file_path: join(ws.memoryDir, 'a.md'), content: memo('a', 'a by extraction') }),
      ),
    )
    const ext = await fakeModel([extWrite.step, reply(text('Saved.'))])
    const dreamDelete = held(reply(toolUse('Write', { file_path: join(ws.memoryDir, 'd.md'), content: '' })))
    const dreamMerge = held(
      reply(
        toolUse('Write', { file_path: join(ws.memoryDir, 'b.md'), content: memo('b', 'b merged by dream') }),
      ),
    )
    const dr = await fakeModel([dreamDelete.step, dreamMerge.step, reply(text('Merged d into b.'))])
    const dreamEvents: DreamEvent[] = []
    const dream = createAutoDream({
      memoryDir: ws.memoryDir,
      transcriptDir: transcripts,
      snapshotDir: tempDir(),
      client: dr.client,
      enabled: () => ({ ok: true }),
      systemPrompt: async () => 'dream',
      recordFor: (runId) => ws.recorder.writer({ author: 'dream', runId }),
      onEvent: (e) => dreamEvents.push(e),
    })
    const extEvents: ExtractionEvent[] = []
    const extractor = initExtractMemories({
      memoryDir: ws.memoryDir,
      client: ext.client,
      gates: () => [{ ok: true }],
      systemPrompt: async () => 'main agent',
      recordFor: (runId) => ws.recorder.writer({ author: 'extraction', runId }),
      onEvent: (e) => extEvents.push(e),
    })
    const dreaming = dream.executeAutoDream({ force: true })
    await dreamDelete.arrived
    const extracting = extractor.executeExtractMemories({
      messages: [{ uuid: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    })
    await extWrite.arrived
    dreamDelete.release()
    await dreamMerge.arrived
    extWrite.release()
    await extracting
    dreamMerge.release()
    await dreaming
    await ws.recorded('a.md', 'b.md', 'd.md')
    const dreamRun = dreamEvents.find((e) => e.type === 'improved')
    expect(dreamRun?.type).toBe('improved')
    const dreamId = (dreamRun as { runId: string }).runId
    const extId = (extEvents.find((e) => e.type === 'wrote') as { runId: string }).runId
    expect((await ws.history.list({ runId: dreamId })).map((e) => e.path).sort()).toEqual([
      'b.md',
      'd.md',
      'd.md',
    ])
    expect((await ws.history.list({ runId: extId })).map((e) => e.path)).toEqual(['a.md'])
    expect(existsSync(join(ws.memoryDir, 'd.md'))).toBe(false)
    await undoRun(ws.history, ws.memoryDir, dreamId, {
      record: ws.recorder.writer({ author: 'user', runId: 'undo' }),
    })
    expect(ws.read('d.md')).toContain('d original')
    expect(ws.read('b.md')).toContain('b original')
    expect(ws.read('a.md')).toContain('a by extraction')
  })
})
