import { appendFileSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { sandbox } from '../../../test/helpers/temp-env.js'
import { clientStyle } from '../store/memory-format.js'
import {
  clientOwnMemory,
  recalledByClient,
  recalledByHook,
  recalledInTranscript,
  savedByClient,
} from './client-memory.js'
import { detectClientVersion, newestTranscriptVersion } from './client-version.js'

const CLIENT_MEMORY = fileURLToPath(new URL('../../../test/fixtures/client-memory/', import.meta.url))
const TRANSCRIPTS = fileURLToPath(new URL('../../../test/fixtures/transcripts/', import.meta.url))

interface Findings {
  client: string
  askedFormat: 'flat' | 'nested' | null
  written: { keys: { metadata: string[] } } | null
  transcriptEntries: string[]
}
const captured = readdirSync(CLIENT_MEMORY)
  .filter((d) => d.startsWith('claude-code-'))
  .map((d) => ({
    dir: join(CLIENT_MEMORY, d),
    version: d.slice('claude-code-'.length),
    findings: JSON.parse(readFileSync(join(CLIENT_MEMORY, d, 'client.json'), 'utf8')) as Findings,
  }))

describe('what each client version writes, as the real clients showed', () => {
  it.each(captured.map((c) => [c.version, c] as const))('%s', (version, c) => {
    const style = clientStyle(version)
    expect(style.format).toBe(c.findings.askedFormat)
    // The stamps are the metadata keys it added to a memory whose model wrote only `type`.
    const stamped = (c.findings.written?.keys.metadata ?? []).filter((k) => k !== 'type')
    expect([...style.stamps].sort()).toEqual(stamped.sort())
  })
})

describe("the client's own memory work, as its transcripts record it", () => {
  const newest = captured.find((c) => c.findings.transcriptEntries.includes('attachment/relevant_memories'))!
  const entries = readFileSync(join(newest.dir, 'transcript.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as object)

  it('reads the memories it saved and the ones it recalled', () => {
    expect(savedByClient(entries).map((p) => p.split('/').pop())).toEqual(['probe_new.md'])
    expect(recalledByClient(entries).map((p) => p.split('/').pop())).toEqual(['plain-flat.md'])
  })

  it('finds a recall in a transcript by its line alone, and nothing in a missing one', async () => {
    const sb = sandbox()
    const path = join(sb.root, 'session.jsonl')
    writeFileSync(
      path,
      '{"type":"user"}\nnot json\n' + readFileSync(join(newest.dir, 'transcript.jsonl'), 'utf8'),
    )
    const names = (r: { paths: string[] }) => r.paths.map((p) => p.split('/').pop())
    const first = await recalledInTranscript(path)
    expect(names(first)).toEqual(['plain-flat.md'])
    expect(await recalledInTranscript(join(sb.root, 'gone.jsonl'))).toEqual({ paths: [], compacted: false })
    // The next prompt reads only what was appended since: the earlier recall is not read again.
    const recallLine = readFileSync(path, 'utf8')
      .split('\n')
      .find((l) => l.includes('"relevant_memories"'))!
    expect(names(await recalledInTranscript(path, first.mark))).toEqual([])
    appendFileSync(
      path,
      '{"type":"user"}\n' + recallLine.replace(/plain-flat\.md/g, 'later.md') + '\n{"partial":',
    )
    const second = await recalledInTranscript(path, first.mark)
    expect(names(second)).toEqual(['later.md'])
    expect(second.mark!.offset).toBe(readFileSync(path).length - '{"partial":'.length)
    // A transcript replaced under its name (another inode) is read from its start.
    writeFileSync(`${path}.new`, readFileSync(path, 'utf8'))
    renameSync(`${path}.new`, path)
    const third = await recalledInTranscript(path, second.mark)
    expect(names(third)).toEqual(['plain-flat.md', 'later.md'])
    expect(third.compacted).toBe(false)
    // A compaction: what was recalled before it is no longer in context; only what comes after counts.
    appendFileSync(
      path,
      '{"partial":1}\n' +
        '{"type":"system","subtype":"compact_boundary","content":"Conversation compacted"}\n' +
        recallLine.replace(/plain-flat\.md/g, 'after.md') +
        '\n',
    )
    const fourth = await recalledInTranscript(path, third.mark)
    expect(fourth.compacted).toBe(true)
    expect(names(fourth)).toEqual(['after.md'])
  })

  it('knows the switches it keeps in its global config (CLAUDE_CONFIG_DIR or ~)', async () => {
    const sb = sandbox()
    expect(await clientOwnMemory(sb.ctx())).toEqual({ extracts: false, recalls: false })
    writeFileSync(
      join(sb.configDir, '.claude.json'),
      JSON.stringify({ cachedGrowthBookFeatures: { tengu_passport_quail: true, tengu_moth_copse: false } }),
    )
    expect(await clientOwnMemory(sb.ctx())).toEqual({ extracts: true, recalls: false })
    writeFileSync(join(sb.configDir, '.claude.json'), '{ not json')
    expect(await clientOwnMemory(sb.ctx())).toEqual({ extracts: false, recalls: false })
  })
})

describe('which client the user runs', () => {
  it("reads the version from the project's newest transcript", async () => {
    expect(await newestTranscriptVersion(join(TRANSCRIPTS, 'claude-code-2.1.332', 'project'))).toBe('2.1.332')
    expect(await newestTranscriptVersion(join(TRANSCRIPTS, 'claude-code-2.1.88', 'project'))).toBe('2.1.88')
    expect(await newestTranscriptVersion(join(TRANSCRIPTS, 'nowhere'))).toBeUndefined()
  })

  it('is unknown without a transcript or a claude on the PATH, and MEMDIR_CLIENT_VERSION says it outright', async () => {
    const sb = sandbox()
    expect(await detectClientVersion(sb.ctx())).toBeUndefined()
    expect(
      await detectClientVersion(sb.ctx({ env: { ...sb.env, MEMDIR_CLIENT_VERSION: '2.1.336' } })),
    ).toEqual({
      version: '2.1.336',
      source: 'installed',
    })
  })

  it("reads the memories a prompt hook added from the newer clients' record of hook context", () => {
    const attachment = (content: string[]) => ({
      type: 'attachment',
      attachment: { type: 'hook_additional_context', content, hookName: 'UserPromptSubmit' },
    })
    const injected = [
      'Memory (saved today): /m/memory/a.md:\n\nbody a',
      'This memory is 12 days old. Memories are point-in-time observations.\n\nMemory: /m/memory/b c.md:\n\nbody b\nMemory: not a header line',
    ].join('\n\n')
    expect(
      recalledByHook([attachment([injected]), attachment(['unrelated context']), { type: 'user' }]),
    ).toEqual(['/m/memory/a.md', '/m/memory/b c.md'])
  })
})
