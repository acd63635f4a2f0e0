import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { createHost } from './host.js'

describe('host router', () => {
  it('answers calls with values, errors as {code, message}, and keeps settings private', async () => {
    const sb = sandbox({ MEMDIR_DATA_DIR: '' })
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    clearAutoMemPathCache()
    writeFile(
      join(getAutoMemPath(sb.ctx()), 'a.md'),
      '---\nname: A\ndescription: alpha\ntype: user\n---\nx\n',
    )
    const host = await createHost({ env: sb.env, projectRoot: sb.project })
    try {
      const list = await host.call('memory/list', undefined)
      expect(list).toMatchObject({
        ok: true,
        value: [{ relPath: 'a.md', name: 'A', type: 'user', scope: 'private', age: 'today' }],
      })
      expect(await host.call('memory/read', { relPath: '../x.md' })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PATH' },
      })
      expect(await host.call('nope/nothing' as never, undefined)).toMatchObject({
        ok: false,
        error: { code: 'UNKNOWN_METHOD' },
      })
      const read = (await host.call('memory/read', { relPath: 'a.md' })) as {
        ok: true
        value: { hash: string }
      }
      const stale = await host.call('memory/update', {
        relPath: 'a.md',
        input: { name: 'A', description: 'alpha', type: 'user', body: 'y' },
        expectedHash: '0'.repeat(64),
      })
      expect(stale).toMatchObject({
        ok: false,
        error: { code: 'CONFLICT', details: { current: expect.stringContaining('alpha') } },
      })
      expect(read.value.hash).toHaveLength(64)
      expect(await host.call('settings/set', { dreamMinSessions: 1.5 })).toMatchObject({
        ok: false,
        error: { code: 'BAD_REQUEST', message: expect.stringContaining('dreamMinSessions') },
      })
      // A token belongs to a server and repo: alone it has nothing to belong to.
      expect(await host.call('settings/set', { teamToken: 'tmt_secret' })).toMatchObject({
        ok: false,
        error: { code: 'BAD_REQUEST', message: expect.stringContaining('server and a repo') },
      })
      // Plain http to another machine would carry the token and every team memory unencrypted.
      expect(
        await host.call('settings/set', { teamUrl: 'http://team.example', teamRepo: 'acme/shop' }),
      ).toMatchObject({
        ok: false,
        error: { code: 'BAD_REQUEST', message: expect.stringContaining('use https://') },
      })
      expect(
        await host.call('settings/set', {
          teamUrl: 'https://team.example',
          teamRepo: 'acme/shop',
          teamToken: 'tmt_secret',
          dreamMinHours: 12,
        }),
      ).toMatchObject({
        ok: true,
        value: { teamTokenSet: true, teamRepo: 'acme/shop', dreamMinHours: 12 },
      })
      // A secret pasted with a line break is refused with where, never what; spaces around it go.
      const pasted = await host.call('settings/set', { teamToken: 'tmt_other\nsecret', modelApiKey: 'sk-x' })
      expect(pasted).toMatchObject({
        ok: false,
        error: {
          code: 'BAD_REQUEST',
          message:
            'teamToken: the team token holds a line break (character 10 of 16), which no team token has: copy it again',
        },
      })
      expect(JSON.stringify(pasted)).not.toContain('secret"')
      expect(await host.call('settings/set', { modelApiKey: 'sk-ant-ü' })).toMatchObject({
        ok: false,
        error: {
          message: expect.stringContaining('modelApiKey: the API key holds a character beyond ASCII'),
        },
      })
      expect(await host.call('settings/set', { teamToken: '  tmt_secret  ' })).toMatchObject({ ok: true })
      expect(readFileSync(join(sb.root, 'data', 'settings.json'), 'utf8')).not.toContain('tmt_secret')
      expect(statSync(join(sb.root, 'data', 'settings.json')).mode & 0o777).toBe(0o600)
    } finally {
      await host.close()
    }
  })
})

describe('one effective configuration', () => {
  it('a project whose memory dir is a file: opening it says so, and the open workspace stays open', async () => {
    const sb = sandbox()
    clearAutoMemPathCache()
    writeFile(
      join(getAutoMemPath(sb.ctx()), 'a.md'),
      '---\nname: A\ndescription: alpha\ntype: user\n---\nx\n',
    )
    const other = join(sb.root, 'work', 'other')
    mkdirSync(other, { recursive: true })
    const blocked = getAutoMemPath(sb.ctx({ projectRoot: other })).replace(/\/$/, '')
    writeFile(blocked, 'not a folder\n')
    const host = await createHost({ env: sb.env, projectRoot: sb.project })
    try {
      const r = await host.call('workspace/open', { projectRoot: other })
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_PATH' } })
      expect(!r.ok && r.error.message).toBe(
        `${blocked} is a file, not a folder: no memory can be kept there (Claude Code's neither). Move or rename that file.`,
      )
      expect(await host.call('workspace/current', undefined)).toMatchObject({
        ok: true,
        value: { projectRoot: sb.project },
      })
      expect(await host.call('memory/list', undefined)).toMatchObject({
        ok: true,
        value: [{ relPath: 'a.md' }],
      })
      // A file picked as the project folder is no project.
      const file = writeFile(join(sb.root, 'work', 'notes.txt'), 'x\n')
      expect(await host.call('workspace/open', { projectRoot: file })).toMatchObject({
        ok: false,
        error: { code: 'NOT_FOUND', message: `Not a folder: ${file} is a file; pick the folder it is in.` },
      })
      expect(await host.call('workspace/current', undefined)).toMatchObject({
        value: { projectRoot: sb.project },
      })
    } finally {
      await host.close()
    }
    // Started on that project, the app says the same instead of failing on the file system's words.
    await expect(createHost({ env: sb.env, projectRoot: other })).rejects.toThrow(/is a file, not a folder/)
  })

  it('a broken settings file is reported and kept aside on the next save, never silently replaced', async () => {
    const sb = sandbox()
    const data = join(sb.root, 'data')
    sb.env.MEMDIR_DATA_DIR = data
    writeFile(join(data, 'settings.json'), '{"teamUrl": "http://x", broken')
    clearAutoMemPathCache()
    const host = await createHost({ env: sb.env, projectRoot: sb.project })
    try {
      const got = (await host.call('settings/get', undefined)) as { ok: true; value: { problem?: string } }
      expect(got.value.problem).toMatch(/settings\.json is not JSON/)
      expect(await host.call('settings/set', { dreamMinHours: 6 })).toMatchObject({ ok: true })
      const aside = readdirSync(data).filter((f) => f.startsWith('settings.broken-'))
      expect(aside).toHaveLength(1)
      expect(readFileSync(join(data, aside[0]!), 'utf8')).toContain('broken')
      expect(JSON.parse(readFileSync(join(data, 'settings.json'), 'utf8'))).toEqual({ dreamMinHours: 6 })
    } finally {
      await host.close()
    }
  })

  it('an environment variable overrides the saved value, and the view says so', async () => {
    const sb = sandbox({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/env', MEMDIR_DREAM_MIN_HOURS: '3' })
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    writeFile(
      join(sb.root, 'data', 'settings.json'),
      JSON.stringify({ baseURL: 'http://saved', dreamMinHours: 48, agentModel: 'm-saved' }),
    )
    clearAutoMemPathCache()
    const host = await createHost({ env: sb.env, projectRoot: sb.project })
    try {
      const { value } = (await host.call('settings/get', undefined)) as {
        ok: true
        value: Record<string, unknown>
      }
      expect(value).toMatchObject({
        modelBaseURL: 'http://127.0.0.1:9/env',
        dreamMinHours: 3,
        agentModel: 'm-saved',
        sources: {
          baseURL: { source: 'env', envVar: 'ANTHROPIC_BASE_URL' },
          dreamMinHours: { source: 'env', envVar: 'MEMDIR_DREAM_MIN_HOURS' },
          agentModel: { source: 'settings' },
          selectorModel: { source: 'default' },
        },
      })
    } finally {
      await host.close()
    }
  })
})
