import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { clearAutoMemPathCache, getAutoMemPath } from '../../src-main/core/paths/auto-mem-path.js'
import { createHost, type Host } from '../../src-main/host/app/host.js'
import { startWebServer, type RunningWebServer } from '../../src-main/web/web-server.js'
import { changesOutside, snapshotTree } from '../helpers/home-snapshot.js'
import { sandbox, writeFile } from '../helpers/temp-env.js'

/**
 * The browser transport's RPC as an attacker who has the page's token uses it: every way a memory
 * file is named goes through the one name rule with real error codes, no MEMORY.md pointer can
 * lead outside the memory dir, and an edit or rename keeps the index line someone else wrote.
 */

let host: Host
let web: RunningWebServer
afterEach(async () => {
  await web?.close()
  await host?.close()
})
beforeEach(() => clearAutoMemPathCache())

async function start() {
  const sb = sandbox({ MEMDIR_TEAM_MEMORY: '1' })
  sb.env.MEMDIR_DATA_DIR = join(sb.home, '.memdir')
  const memoryDir = getAutoMemPath(sb.ctx())
  writeFile(join(memoryDir, 'MEMORY.md'), '- [Existing](existing.md) — kept\n')
  writeFile(join(memoryDir, 'team', 'MEMORY.md'), '')
  host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
  web = await startWebServer({ host, rendererDir: join(sb.root, 'no-renderer') })
  const rpc = async (method: string, args: unknown) => {
    const res = await fetch(`http://127.0.0.1:${new URL(web.url).port}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-memdir-token': web.token },
      body: JSON.stringify({ method, args }),
    })
    return (await res.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } }
  }
  return { sb, memoryDir, rpc }
}

const input = { name: 'Deploy', description: 'how deploys work', type: 'project', body: 'x' }

describe('memory names over the web RPC', () => {
  it('refuses control and bidi characters, absolute paths and traversal in both scopes, with real codes', async () => {
    const { sb, memoryDir, rpc } = await start()
    const before = snapshotTree(sb.home)
    const cases: [Record<string, unknown>, string][] = [
      [{ scope: 'private', fileName: 'evil\n- [owned](../../.ssh/id_rsa)' }, 'INVALID_NAME'],
      [{ scope: 'private', fileName: 'gpj\u202e.md' }, 'INVALID_NAME'],
      [{ scope: 'team', fileName: '/etc/passwd.md' }, 'INVALID_NAME'],
      [{ scope: 'private', fileName: '/tmp/x.md' }, 'INVALID_NAME'],
      [{ scope: 'team', fileName: '../../outside.md' }, 'INVALID_NAME'],
      [{ scope: 'private', fileName: 'a'.repeat(300) }, 'PATH_TOO_LONG'],
      [{ scope: 'private', fileName: `${'d/'.repeat(260)}x.md` }, 'PATH_TOO_LONG'],
    ]
    for (const [args, code] of cases) {
      const r = await rpc('memory/create', { input, ...args })
      expect(r, JSON.stringify(args)).toMatchObject({ ok: false, error: { code } })
    }
    for (const name of ['Title\n- [owned](/etc/passwd) — pwned', 'abc\u202egpj']) {
      const r = await rpc('memory/create', { input: { ...input, name }, scope: 'team' })
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_NAME' } })
    }
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe('- [Existing](existing.md) — kept\n')
    expect(readFileSync(join(memoryDir, 'team', 'MEMORY.md'), 'utf8')).toBe('')
    expect(changesOutside(before, snapshotTree(sb.home), ['.memdir'])).toEqual([])
  })

  it('rename refuses the same names, and a restore of a version that does not exist is NOT_FOUND', async () => {
    const { rpc } = await start()
    expect(await rpc('memory/create', { input, scope: 'private', fileName: 'deploy.md' })).toMatchObject({
      ok: true,
    })
    for (const to of ['team/../../x.md', 'x\n.md', '/abs.md', 'b'.repeat(300) + '.md'])
      expect((await rpc('memory/rename', { from: 'deploy.md', to })).ok, to).toBe(false)
    expect(await rpc('history/restore', { path: 'deploy.md', id: 999_999 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })
    expect(await rpc('memory/read', { relPath: 'nothing-here.md' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })
  })
})

describe('a line someone else wrote stays theirs', () => {
  it('an editor update keeps the user’s line; a rename changes only its link target; a line Memdir wrote follows the memory', async () => {
    const { memoryDir, rpc } = await start()
    const userLine = '- [Staging needs VPN](staging-vpn.md) — connect the VPN first…'
    writeFile(join(memoryDir, 'MEMORY.md'), `# Notes\n${userLine}\n- [Existing](existing.md) — kept\n`)
    writeFile(
      join(memoryDir, 'staging-vpn.md'),
      '---\nname: staging-vpn\ndescription: staging needs the VPN\ntype: project\nowner: ops-team\n---\n\nConnect.\n',
    )
    const read = (await rpc('memory/read', { relPath: 'staging-vpn.md' })) as { value: { hash: string } }
    const upd = await rpc('memory/update', {
      relPath: 'staging-vpn.md',
      input: {
        name: 'staging-vpn',
        description: 'a new description',
        type: 'project',
        body: 'Connect first.',
      },
      expectedHash: read.value.hash,
    })
    expect(upd.ok).toBe(true)
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(
      `# Notes\n${userLine}\n- [Existing](existing.md) — kept\n`,
    )
    expect(readFileSync(join(memoryDir, 'staging-vpn.md'), 'utf8')).toContain('owner: ops-team')

    expect((await rpc('memory/rename', { from: 'staging-vpn.md', to: 'infra/staging-vpn.md' })).ok).toBe(true)
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(
      `# Notes\n- [Staging needs VPN](infra/staging-vpn.md) — connect the VPN first…\n- [Existing](existing.md) — kept\n`,
    )
    expect(readFileSync(join(memoryDir, 'infra', 'staging-vpn.md'), 'utf8')).toContain('owner: ops-team')

    // Into team/: the same line moves to team/MEMORY.md, only its target changed.
    expect((await rpc('memory/rename', { from: 'infra/staging-vpn.md', to: 'team/staging-vpn.md' })).ok).toBe(
      true,
    )
    expect(readFileSync(join(memoryDir, 'team', 'MEMORY.md'), 'utf8')).toBe(
      '- [Staging needs VPN](staging-vpn.md) — connect the VPN first…\n',
    )
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(
      '# Notes\n- [Existing](existing.md) — kept\n',
    )

    // A memory Memdir indexed itself: its line follows its new name and description.
    const created = (await rpc('memory/create', { input, scope: 'private' })) as {
      value: { relPath: string; hash: string }
    }
    await rpc('memory/update', {
      relPath: created.value.relPath,
      input: { ...input, name: 'Deploy freeze', description: 'no deploys on Fridays' },
      expectedHash: created.value.hash,
    })
    expect(readFileSync(join(memoryDir, 'MEMORY.md'), 'utf8')).toContain(
      `- [Deploy freeze](${created.value.relPath}) — no deploys on Fridays`,
    )
  })
})
