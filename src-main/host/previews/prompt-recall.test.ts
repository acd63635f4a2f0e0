import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
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

const DEPLOY_QUESTION = 'why does the deploy pipeline need the feature flag'

/** A project with one memory, and a prompt of a session (its transcript in `dir`) to recall for. */
function world() {
  const sb = sandbox({ MEMDIR_DATA_DIR: undefined })
  const ctx = sb.ctx()
  const memoryDir = getAutoMemPath(ctx)
  writeFile(
    join(memoryDir, 'deploy.md'),
    '---\nname: Deploy\ndescription: the deploy pipeline needs the feature flag\ntype: project\n---\nflag first\n',
  )
  const dir = join(sb.root, 'transcripts')
  const ask = (session: string, extra: Record<string, string> = {}, prompt = DEPLOY_QUESTION) =>
    recallForPrompt(
      ctx,
      {
        session_id: session,
        transcript_path: join(dir, `${session}.jsonl`),
        cwd: sb.project,
        hook_event_name: 'UserPromptSubmit',
        prompt,
        ...extra,
      },
      { scan: (d) => scanMemoryFiles(d), selectorTimeoutMs: 1000 },
    )
  return { sb, dir, memoryDir, ask }
}

describe("a session's transcript, read a little at each prompt", () => {
  it('each prompt reads only what was appended, also when it injects nothing', async () => {
    const { sb, dir, ask: askIn } = world()
    const transcript = join(dir, 'one-session.jsonl')
    writeFile(transcript, '{"type":"user"}\n')
    const ask = (prompt: string) => askIn('one-session', {}, prompt)
    const stateFile = () => {
      const states = join(sb.home, '.memdir', 'hooks', 'recall')
      const [project] = readdirSync(states)
      return JSON.parse(readFileSync(join(states, project!, 'one-session.json'), 'utf8')) as {
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
