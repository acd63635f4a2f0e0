import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { initExtractMemories, type ExtractionEvent } from '../../src-main/core/extract/extract-memories.js'
import { ProposalStore } from '../../src-main/core/review/proposals.js'
import type { TranscriptMessage } from '../../src-main/core/sessions/transcript.js'
import { createHost } from '../../src-main/host/app/host.js'
import { proposalsDirFor } from '../../src-main/host/settings/app-data.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../src-main/core/paths/auto-mem-path.js'
import { reply, text, toolUse } from '../fake-anthropic/server.js'
import { fakeModel } from '../helpers/model.js'
import { sandbox, tempDir } from '../helpers/temp-env.js'

/**
 * Agents never save a secret: the extraction and dream agents have no one to ask, so their Write
 * and Edit of a detected secret are refused in private and team memory alike, with a reason the
 * model can act on; in review mode nothing holding one reaches the inbox, and a flagged proposal
 * cannot be approved unedited.
 */

// Real-format credentials, assembled so no scanner flags this file itself.
const AWS_KEY = 'AKIA' + 'QW3ERT7YUI2OPASD'
const GITHUB_TOKEN = 'ghp_' + 'R7sQ2kLm9VxT4bN8cW1zY6hJ3fD5gA0pE2uK'

const turn: TranscriptMessage[] = [
  {
    uuid: 'u1',
    role: 'user',
    content: [{ type: 'text', text: `deploys use ${AWS_KEY} and ${GITHUB_TOKEN}` }],
  },
  { uuid: 'a1', role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
]

const memoryFile = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: how deploys authenticate\ntype: reference\n---\n\n${body}\n`

describe.each([false, true])('an extraction whose model writes a secret (review mode: %s)', (reviewMode) => {
  it('is refused in private and team memory, the model hears why, and nothing lands', async () => {
    const { fake, client } = await fakeModel()
    const root = tempDir()
    const memoryDir = join(root, 'memory') + '/'
    mkdirSync(memoryDir)
    const proposals = new ProposalStore(join(root, 'proposals'))
    const events: ExtractionEvent[] = []
    const extractor = initExtractMemories({
      memoryDir,
      client,
      gates: () => [{ ok: true }],
      systemPrompt: async () => 'You are the main agent.',
      onEvent: (e) => events.push(e),
      ...(reviewMode ? { review: { enabled: () => true, proposals } } : {}),
    })
    fake.enqueue(
      reply(
        toolUse('Write', {
          file_path: join(memoryDir, 'deploy_creds.md'),
          content: memoryFile('Deploy creds', `AWS: ${AWS_KEY}\nGitHub: ${GITHUB_TOKEN}`),
        }),
        toolUse('Write', {
          file_path: join(memoryDir, 'team', 'deploy.md'),
          content: memoryFile('Deploy', `token ${GITHUB_TOKEN}`),
        }),
        // The text is clean; the file's name is the credential (listed in every index and manifest).
        toolUse('Write', {
          file_path: join(memoryDir, `${GITHUB_TOKEN}.md`),
          content: memoryFile('CI token', 'the CI token lives in 1Password, vault CI'),
        }),
      ),
      reply(text('Understood: I did not save them.')),
    )
    await extractor.executeExtractMemories({ messages: turn })
    await extractor.drainPendingExtraction()

    expect(existsSync(join(memoryDir, 'deploy_creds.md'))).toBe(false)
    expect(existsSync(join(memoryDir, 'team', 'deploy.md'))).toBe(false)
    expect(readdirSync(memoryDir)).toEqual([])
    expect(await proposals.list()).toEqual([])
    // The model's next request carries the refusals: the rule, what to do instead, never the value.
    const results = JSON.stringify(fake.requests.at(-1)!.body.messages)
    expect(results).toContain('AWS')
    expect(results).toContain('GitHub token')
    expect(results).toContain('write where it lives instead')
    const toolResults = (fake.requests.at(-1)!.body.messages as { content: unknown }[]).at(-1)!
    expect(JSON.stringify(toolResults)).not.toContain(AWS_KEY)
    expect(JSON.stringify(toolResults)).not.toContain(GITHUB_TOKEN)
    expect(JSON.stringify(toolResults)).toContain('Refused: ghp_….md would contain a GitHub token')
    expect(events.some((e) => e.type === 'wrote' || e.type === 'proposed')).toBe(false)
  })
})

describe('a proposal that holds a secret', () => {
  it('is flagged in the inbox and cannot be approved unedited; approved with the secret edited out, it lands', async () => {
    clearAutoMemPathCache()
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    const host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    try {
      const memoryDir = getAutoMemPath(sb.ctx())
      // As an older Memdir (or a tampered inbox) could have left it.
      const store = new ProposalStore(proposalsDirFor(sb.ctx(), memoryDir))
      const p = await store.create({
        author: 'extraction',
        reason: 'deploy credentials',
        files: [{ path: 'deploy.md', before: null, after: memoryFile('Deploy', `AWS: ${AWS_KEY}`) }],
      })
      const list = (await host.call('review/list', undefined)) as {
        ok: true
        value: { files: { secrets?: unknown[] }[] }[]
      }
      expect(list.value[0]!.files[0]!.secrets).toEqual([
        expect.objectContaining({ ruleId: expect.stringMatching(/aws/) }),
      ])
      expect(JSON.stringify(list.value[0]!.files[0]!.secrets)).not.toContain(AWS_KEY)
      expect(await host.call('review/approve', { id: p.id })).toMatchObject({
        ok: false,
        error: { code: 'SECRET_IN_MEMORY' },
      })
      expect(existsSync(join(memoryDir, 'deploy.md'))).toBe(false)
      const edited = memoryFile('Deploy', 'AWS: the deploy key is in 1Password, vault CI')
      expect(await host.call('review/approve', { id: p.id, edits: { 'deploy.md': edited } })).toMatchObject({
        ok: true,
      })
      expect(readdirSync(memoryDir)).toContain('deploy.md')
      expect(await host.call('review/approve', { id: p.id })).toMatchObject({
        ok: false,
        error: { code: 'NOT_FOUND' },
      })
    } finally {
      await host.close()
    }
  })
})
