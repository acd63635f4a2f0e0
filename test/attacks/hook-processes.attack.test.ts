import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hookLogPath } from '../../src-main/agents/hooks/hook-log.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../src-main/core/paths/auto-mem-path.js'
import { getProjectTranscriptDir } from '../../src-main/core/paths/team-agent-paths.js'
import {
  delayed,
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
} from '../fake-anthropic/server.js'
import { runBuilt } from '../helpers/built-cli.js'
import { sandbox } from '../helpers/temp-env.js'
import { until } from '../helpers/until.js'

/**
 * Hooks leave nothing behind: a SessionEnd with no transcript starts no process, and every
 * detached extraction exits when its work is done, when its time is up, or when its memory dir is
 * gone — the count of Memdir processes returns to where it was.
 */

const TRANSCRIPT = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'transcripts',
  'claude-code-2.1.88',
  'project',
  '7e04a474-c001-4602-a9d4-f8d9d02f2f42.jsonl',
)

const fakes: FakeAnthropic[] = []
afterEach(async () => {
  while (fakes.length) await fakes.pop()!.close()
})
beforeEach(() => clearAutoMemPathCache())

/** Memdir processes whose command line names this sandbox (the detached runs carry its paths). */
function memdirProcesses(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
  return out.split('\n').filter((l) => l.includes(marker) && l.includes('memdir') && !l.includes('ps -eo'))
}

function world() {
  const sb = sandbox()
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  const memoryDir = getAutoMemPath(sb.ctx())
  const transcriptDir = getProjectTranscriptDir(sb.ctx())
  mkdirSync(transcriptDir, { recursive: true })
  const transcript = join(transcriptDir, '7e04a474-c001-4602-a9d4-f8d9d02f2f42.jsonl')
  copyFileSync(TRANSCRIPT, transcript)
  const input = (event: string, path = transcript) =>
    JSON.stringify({
      session_id: '7e04a474-c001-4602-a9d4-f8d9d02f2f42',
      transcript_path: path,
      cwd: sb.project,
      hook_event_name: event,
      ...(event === 'SessionEnd' ? { reason: 'other' } : { stop_hook_active: false }),
    })
  return { sb, memoryDir, transcript, input }
}

describe('hooks leave nothing behind', () => {
  it('a SessionEnd with no transcript (after `claude mcp list`) starts no process', async () => {
    const { sb, input } = world()
    const before = memdirProcesses(sb.root).length
    const r = await runBuilt(['hook', 'stop'], {
      env: { ...sb.env, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
      input: input('SessionEnd', join(sb.root, 'no-such-session.jsonl')),
    })
    expect(r.code).toBe(0)
    await new Promise((res) => setTimeout(res, 500))
    expect(memdirProcesses(sb.root)).toHaveLength(before)
    const log = readFileSync(hookLogPath(sb.env.MEMDIR_DATA_DIR!), 'utf8')
    expect(log).toContain('no transcript to extract')
    expect(log).not.toContain('ENOENT')
  })

  it('a detached run exits once its work is done', async () => {
    const { sb, memoryDir, input } = world()
    const fake = await startFakeAnthropic([
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'done.md'),
          content: '---\nname: Done\ndescription: a finished run\ntype: project\n---\n\nx\n',
        }),
      ),
      reply(text('Saved.')),
    ])
    fakes.push(fake)
    const before = memdirProcesses(sb.root).length
    const env = { ...sb.env, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url }
    expect((await runBuilt(['hook', 'stop'], { env, input: input('Stop') })).code).toBe(0)
    await until('the memory', () => existsSync(join(memoryDir, 'done.md')), 20_000)
    await until('the run to exit', () => memdirProcesses(sb.root).length === before, 10_000)
  })

  it('a detached run whose memory dir is deleted while it waits on the model exits within seconds', async () => {
    const { sb, memoryDir, input } = world()
    // The model takes a minute to answer: the run would wait for it.
    const fake = await startFakeAnthropic([delayed(60_000, reply(text('late')))])
    fakes.push(fake)
    const before = memdirProcesses(sb.root).length
    const env = { ...sb.env, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url }
    expect((await runBuilt(['hook', 'stop'], { env, input: input('Stop') })).code).toBe(0)
    await until('the run to start', () => memdirProcesses(sb.root).length > before, 10_000)
    await until('its model request', () => fake.requests.length > 0, 10_000)
    // The user removes the project's Claude Code dir (transcripts and memory).
    rmSync(dirname(memoryDir.replace(/\/$/, '')), { recursive: true, force: true })
    const removedAt = Date.now()
    await until('the run to exit', () => memdirProcesses(sb.root).length === before, 10_000)
    expect(Date.now() - removedAt).toBeLessThan(5_000)
    expect(readFileSync(hookLogPath(sb.env.MEMDIR_DATA_DIR!), 'utf8')).toMatch(/stopped: .* is gone/)
  })

  it('a detached run that runs out of time exits', async () => {
    const { sb, input } = world()
    const fake = await startFakeAnthropic([delayed(60_000, reply(text('late')))])
    fakes.push(fake)
    const before = memdirProcesses(sb.root).length
    const env = {
      ...sb.env,
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.url,
      MEMDIR_HOOK_EXTRACT_TIMEOUT_MS: '1500',
    }
    expect((await runBuilt(['hook', 'stop'], { env, input: input('Stop') })).code).toBe(0)
    await until('the run to exit', () => memdirProcesses(sb.root).length === before, 10_000)
    await until(
      'its log line',
      () => readFileSync(hookLogPath(sb.env.MEMDIR_DATA_DIR!), 'utf8').includes('stopped: gave up after'),
      20_000,
    )
  })
})
