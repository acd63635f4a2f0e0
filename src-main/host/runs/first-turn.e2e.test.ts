import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { firstTurn } from '../../../test/helpers/transcript-fixtures.js'
import { reply, startFakeAnthropic, text, type FakeAnthropic } from '../../../test/fake-anthropic/server.js'
import { sandbox } from '../../../test/helpers/temp-env.js'
import { until } from '../../../test/helpers/until.js'
import { clearAutoMemPathCache } from '../../core/paths/auto-mem-path.js'
import { getProjectTranscriptDir } from '../../core/paths/team-agent-paths.js'
import { createHost, type Host } from '../app/host.js'

const fakes: FakeAnthropic[] = []
const hosts: Host[] = []
afterEach(async () => {
  while (hosts.length) await hosts.pop()!.close()
  while (fakes.length) await fakes.pop()!.close()
})

const isExtraction = (body: Record<string, unknown>) =>
  JSON.stringify(body.messages ?? []).includes('memory extraction agent')

describe('the first turn of a new session', () => {
  it.each([
    ['2.1.88', 'a project Claude Code has run in before'],
    ['2.1.332', 'a project Claude Code has run in before'],
    ['2.1.332', 'a project whose transcript dir appears only now'],
    ['2.1.332', 'a session that ended just before the app started'],
  ])(
    '%s, %s: a session file that appears with one finished turn is extracted within the debounce',
    async (version, where) => {
      const sb = sandbox()
      sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
      clearAutoMemPathCache()
      const fake = await startFakeAnthropic([], { fallback: reply(text('Nothing to save.')) })
      fakes.push(fake)
      const env = {
        ...sb.env,
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: fake.url,
        MEMDIR_WATCH_DEBOUNCE_MS: '300',
      }
      const transcripts = getProjectTranscriptDir(sb.ctx({ env }))
      const file = join(transcripts, '5f0c2f4e-1111-4222-8333-444455556666.jsonl')
      // The client creates the file and writes the turn into it within moments.
      const writeSession = () => {
        mkdirSync(transcripts, { recursive: true })
        writeFileSync(file, '')
        for (const line of firstTurn(version)) appendFileSync(file, line + '\n')
      }
      if (where.includes('before the app')) writeSession()
      if (where.includes('run in before')) mkdirSync(transcripts, { recursive: true })
      const started = Date.now()
      const host = await createHost({ env, projectRoot: sb.project })
      hosts.push(host)
      if (!where.includes('before the app')) writeSession()
      await until('the extraction request', () => fake.requests.some((r) => isExtraction(r.body)), 10_000)
      // The debounce, plus the time a loaded machine takes to read and send: not the idle wait (30 s).
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(fake.requests.filter((r) => isExtraction(r.body))).toHaveLength(1)
    },
  )
})
