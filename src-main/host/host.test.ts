import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../core/paths/auto-mem-path.js'
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
        error: { code: 'INVALID_INPUT' },
      })
      expect(await host.call('settings/set', { teamToken: 'tmt_secret', dreamMinHours: 12 })).toMatchObject({
        ok: true,
        value: { teamTokenSet: true, dreamMinHours: 12 },
      })
      expect(statSync(join(sb.root, 'data', 'settings.json')).mode & 0o777).toBe(0o600)
    } finally {
      await host.close()
    }
  })
})
