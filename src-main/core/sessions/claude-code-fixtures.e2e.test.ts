import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SCENARIO_TEXT } from '../../../test/fake-anthropic/claude-code-scenario.js'
import { reply, text } from '../../../test/fake-anthropic/server.js'
import { cliSession } from '../../../test/helpers/cli.js'
import { fakeModel } from '../../../test/helpers/model.js'
import { sandbox } from '../../../test/helpers/temp-env.js'
import { normalizeMessages } from '../../../test/fixtures/transcripts/normalize.js'
import { TRANSCRIPT_FIXTURES as ROOT, transcriptFixtures } from '../../../test/helpers/transcript-fixtures.js'

/**
 * Transcripts written by the real Claude Code client (test/fixtures/transcripts/generate.ts), checked
 * against what that client itself sent the model at each step: the reader must rebuild exactly the
 * conversation Claude Code rebuilt.
 */
const fixtures = transcriptFixtures()

/** Where a normalised block was written: the first line from `from` holding that result, text or call. */

/**
 * The transcript as it stood when the client sent a request: up to the entry holding the request's
 * last message, plus the non-message entries (hooks, progress) written before the next message.
 */

describe.each(fixtures)('$dir: memdir extract sends the whole conversation', ({ dir, manifest }) => {
  it('the fork request carries every message Claude Code had, then the extraction prompt', async () => {
    const { fake } = await fakeModel([reply(text('Nothing worth saving.'))])
    const sb = sandbox({ ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: fake.url })
    const { io, run } = cliSession(sb.env, sb.project)
    const file = join(ROOT, dir, 'project', `${manifest.sessionId}.jsonl`)
    expect(await run(['extract', '--transcript', file])).toBe(0)
    expect(io.stdout).not.toContain('no new messages')
    const sent = fake.requests[0]!.body.messages as { role: string; content: unknown }[]
    const last = manifest.checkpoints[manifest.checkpoints.length - 1]!
    expect(normalizeMessages(sent.slice(0, -1) as never)).toEqual([
      ...last.messages,
      { role: 'assistant', blocks: [{ text: SCENARIO_TEXT.again }] },
    ])
    expect(JSON.stringify(sent[sent.length - 1])).toContain('Existing memory files')
  })
})
