import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { scanMemoryFiles } from '../../core/store/scan.js'
import { recallForPrompt } from './prompt-recall.js'

const CLIENT_MEMORY = fileURLToPath(new URL('../../../test/fixtures/client-memory/', import.meta.url))

/** A line the real client wrote when it recalled a memory itself (its relevant_memories attachment). */
const clientRecallLine = readdirSync(CLIENT_MEMORY)
  .filter((d) => d.startsWith('claude-code-'))
  .flatMap((d) => {
    try {
      return readFileSync(join(CLIENT_MEMORY, d, 'transcript.jsonl'), 'utf8').split('\n')
    } catch {
      return []
    }
  })
  .find((l) => l.includes('"relevant_memories"'))!

describe("a session's transcript, read a little at each prompt", () => {
  it('each prompt reads only what was appended, also when it injects nothing', async () => {
    const sb = sandbox({ MEMDIR_DATA_DIR: undefined })
    const ctx = sb.ctx()
    const memoryDir = getAutoMemPath(ctx)
    writeFile(
      join(memoryDir, 'deploy.md'),
      '---\nname: Deploy\ndescription: the deploy pipeline needs the feature flag\ntype: project\n---\nflag first\n',
    )
    const transcript = join(sb.root, 'session.jsonl')
    writeFileSync(transcript, '{"type":"user"}\n')
    const ask = (prompt: string) =>
      recallForPrompt(
        ctx,
        {
          session_id: 'one-session',
          transcript_path: transcript,
          cwd: sb.project,
          hook_event_name: 'UserPromptSubmit',
          prompt,
        },
        { scan: (dir) => scanMemoryFiles(dir), selectorTimeoutMs: 1000 },
      )
    const stateFile = () => {
      const dir = join(sb.home, '.memdir', 'hooks', 'recall')
      const [project] = readdirSync(dir)
      return JSON.parse(readFileSync(join(dir, project!, 'one-session.json'), 'utf8')) as {
        surfaced: string[]
        transcript: { offset: number }
      }
    }
    expect((await ask('why does the deploy pipeline need the feature flag')).output).toBeDefined()
    expect(stateFile().transcript.offset).toBe(readFileSync(transcript).length)
    // The client recalls a memory itself; the next prompt matches nothing, and still moves on.
    appendFileSync(transcript, `${'{"type":"assistant"}\n'.repeat(1000)}${clientRecallLine}\n`)
    expect(await ask('unrelated question about lunch plans')).toEqual({ skipped: 'no relevant memory' })
    const state = stateFile()
    expect(state.transcript.offset).toBe(readFileSync(transcript).length)
    expect(state.surfaced.some((p) => p.endsWith('plain-flat.md'))).toBe(true)
  })
})

describe('a session the client took up again, or forked', () => {
  function world() {
    const sb = sandbox({ MEMDIR_DATA_DIR: undefined })
    const ctx = sb.ctx()
    const memoryDir = getAutoMemPath(ctx)
    writeFile(
      join(memoryDir, 'deploy.md'),
      '---\nname: Deploy\ndescription: the deploy pipeline needs the feature flag\ntype: project\n---\nflag first\n',
    )
    const dir = join(sb.root, 'transcripts')
    const ask = (session: string, extra: Record<string, string> = {}) =>
      recallForPrompt(
        ctx,
        {
          session_id: session,
          transcript_path: join(dir, `${session}.jsonl`),
          cwd: sb.project,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'why does the deploy pipeline need the feature flag',
          ...extra,
        },
        { scan: (d) => scanMemoryFiles(d), selectorTimeoutMs: 1000 },
      )
    return { dir, memoryDir, ask }
  }
  /** The entry a newer client writes for a prompt hook's context (as the real 2.1.337 does). */
  const hookContextLine = (text: string) =>
    JSON.stringify({ type: 'attachment', attachment: { type: 'hook_additional_context', content: [text] } })

  it('in the same client process, a memory shown once is not shown again', async () => {
    const { dir, ask } = world()
    writeFile(join(dir, 'a.jsonl'), '{"type":"user"}\n')
    expect((await ask('a', { memdir_client: '100@5' })).output).toBeDefined()
    expect(await ask('a', { memdir_client: '100@5' })).toEqual({ skipped: 'no relevant memory' })
  })

  it('in a new client process, a memory the transcript does not hold comes again (2.1.88 keeps no hook context)', async () => {
    const { dir, ask } = world()
    writeFile(join(dir, 'a.jsonl'), '{"type":"user"}\n')
    expect((await ask('a', { memdir_client: '100@5' })).output).toBeDefined()
    expect((await ask('a', { memdir_client: '200@9' })).output).toBeDefined()
    // Where the client is not known (a hook run by something else), nothing changes.
    expect(await ask('a')).toEqual({ skipped: 'no relevant memory' })
  })

  it('in a new client process, a memory the transcript records as hook context is not shown again', async () => {
    const { dir, memoryDir, ask } = world()
    writeFile(join(dir, 'a.jsonl'), '{"type":"user"}\n')
    const first = await ask('a', { memdir_client: '100@5' })
    const context = first.output!.hookSpecificOutput.additionalContext
    expect(context).toContain(join(memoryDir, 'deploy.md'))
    appendFileSync(join(dir, 'a.jsonl'), `${hookContextLine(context)}\n`)
    expect(await ask('a', { memdir_client: '200@9' })).toEqual({ skipped: 'no relevant memory' })
  })

  it("a fork's first prompt: what the transcript it copied records is in its context already", async () => {
    const { dir, ask } = world()
    writeFile(join(dir, 'a.jsonl'), '{"type":"user"}\n')
    const context = (await ask('a')).output!.hookSpecificOutput.additionalContext
    appendFileSync(join(dir, 'a.jsonl'), `${hookContextLine(context)}\n`)
    expect(await ask('f', { memdir_fork_of: join(dir, 'a.jsonl') })).toEqual({
      skipped: 'no relevant memory',
    })
    // Only a session of the same project, and never one's own: anything else is not read.
    writeFile(join(dir, '..', 'elsewhere.jsonl'), `${hookContextLine(context)}\n`)
    expect((await ask('g', { memdir_fork_of: join(dir, '..', 'elsewhere.jsonl') })).output).toBeDefined()
  })
})
