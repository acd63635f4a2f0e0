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
