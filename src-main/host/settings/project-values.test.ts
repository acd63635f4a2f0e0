import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { cliSession } from '../../../test/helpers/cli.js'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { settingsFilePath, type AppSettings } from './app-data.js'
import { createHost } from '../app/host.js'
import { createProjectContext } from './project.js'
import { readStoredSecrets } from './secrets.js'
import { resolveTeamTarget } from './team-target.js'
import { projectKey, projectValues, saveProjectValues, teamPairKey } from './project-values.js'

beforeEach(() => clearAutoMemPathCache())

/** Two git projects, shop and infra, with their origins, in one sandboxed HOME and data dir. */
function twoProjects() {
  const sb = sandbox({ MEMDIR_TEAM_MEMORY: '1' })
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  const shop = sb.project
  const infra = join(sb.root, 'work', 'infra')
  mkdirSync(infra, { recursive: true })
  for (const [dir, origin] of [
    [shop, 'git@github.com:acme/shop.git'],
    [infra, 'git@github.com:acme/infra.git'],
  ] as const) {
    execFileSync('git', ['init', '-q'], { cwd: dir })
    execFileSync('git', ['remote', 'add', 'origin', origin], { cwd: dir })
  }
  const ctxOf = (cwd: string) => createProjectContext({ cwd, env: sb.env })
  const memoryDirOf = (cwd: string) => getAutoMemPath(ctxOf(cwd))
  const settings = () => JSON.parse(readFileSync(settingsFilePath(ctxOf(shop)), 'utf8')) as AppSettings
  const recents = (list: [string, number][]) =>
    writeFile(
      join(sb.env.MEMDIR_DATA_DIR!, 'workspaces.json'),
      JSON.stringify({ recents: list.map(([projectRoot, at]) => ({ projectRoot, at })) }),
    )
  return { sb, shop, infra, ctxOf, memoryDirOf, settings, recents }
}

describe('team values before they were per project', () => {
  it('move to the project whose git origin is the saved repo; the other project gets none', async () => {
    const w = twoProjects()
    w.recents([
      [w.infra, Date.now()], // opened last, but not the repo's project
      [w.shop, Date.now() - 60_000],
    ])
    writeFile(
      settingsFilePath(w.ctxOf(w.shop)),
      JSON.stringify({ teamUrl: 'https://team.example/', teamRepo: 'acme/shop', teamToken: 'tmt_shop' }),
    )
    const host = await createHost({ env: w.sb.env, projectRoot: w.infra, agentSocket: false })
    await host.close()
    const s = w.settings()
    expect(s.teamUrl).toBeUndefined()
    expect(s.teamRepo).toBeUndefined()
    expect(s.teamToken).toBeUndefined()
    expect(s.projects).toEqual({
      [projectKey(w.memoryDirOf(w.shop))]: { teamUrl: 'https://team.example/', teamRepo: 'acme/shop' },
    })
    expect(readStoredSecrets(w.ctxOf(w.shop)).teamTokens).toEqual({
      [teamPairKey('https://team.example', 'acme/shop')]: 'tmt_shop',
    })
    // What the CLI, the hooks and MCP read: shop has its target, infra has only its own origin.
    const shopCtx = { ...w.ctxOf(w.shop), secrets: readStoredSecrets(w.ctxOf(w.shop)) }
    expect(resolveTeamTarget(shopCtx)).toMatchObject({
      url: 'https://team.example/',
      repo: 'acme/shop',
      token: 'tmt_shop',
    })
    const infraTarget = resolveTeamTarget({
      ...w.ctxOf(w.infra),
      secrets: readStoredSecrets(w.ctxOf(w.infra)),
    })
    expect(infraTarget).toEqual({
      url: undefined,
      repo: 'acme/infra',
      repoDefault: 'acme/infra',
      pair: undefined,
      token: undefined,
      tokenFrom: undefined,
    })
  })

  it('without a saved repo, move to the project opened last before the settings were saved', async () => {
    const w = twoProjects()
    const saved = Date.now() - 30_000
    w.recents([
      [w.infra, Date.now()], // opened after the save
      [w.shop, saved - 60_000],
    ])
    const file = writeFile(
      settingsFilePath(w.ctxOf(w.shop)),
      JSON.stringify({ teamUrl: 'https://team.example' }),
    )
    utimesSync(file, new Date(saved), new Date(saved))
    const run = cliSession(w.sb.env, w.infra)
    expect(await run.run(['sync'])).toBe(1)
    expect(run.io.stderr).toContain('no team server configured for this project')
    expect(w.settings().projects).toEqual({
      [projectKey(w.memoryDirOf(w.shop))]: { teamUrl: 'https://team.example' },
    })
    const inShop = cliSession(w.sb.env, w.shop)
    expect(await inShop.run(['sync'])).toBe(1)
    expect(inShop.io.stderr).toContain('no team token for acme/shop on https://team.example')
  })
})

describe('one project, two spellings of its memory dir', () => {
  it('a symlinked Claude config dir finds the team values saved through its real path, and old values move to it', async () => {
    const w = twoProjects()
    // The desktop app sees ~/.claude; a shell reaches the same dir through a link.
    const link = join(w.sb.root, 'claude-link')
    symlinkSync(w.sb.configDir, link)
    const viaReal = w.ctxOf(w.shop)
    const viaLink = createProjectContext({ cwd: w.shop, env: { ...w.sb.env, CLAUDE_CONFIG_DIR: link } })
    clearAutoMemPathCache()
    const [realDir, linkDir] = [getAutoMemPath(viaReal), getAutoMemPath(viaLink)]
    expect(linkDir).not.toBe(realDir)
    mkdirSync(realDir, { recursive: true })
    await saveProjectValues(viaLink, linkDir, { teamUrl: 'https://team.example', teamRepo: 'acme/shop' })
    const saved = w.settings().projects!
    expect(Object.keys(saved)).toEqual([projectKey(realDir)])
    expect(projectValues(w.settings(), realDir)).toEqual({
      teamUrl: 'https://team.example',
      teamRepo: 'acme/shop',
    })
    expect(projectValues(w.settings(), linkDir)).toEqual(projectValues(w.settings(), realDir))

    // Values an earlier Memdir kept under the link's spelling are found, and move on the next save.
    writeFile(
      settingsFilePath(viaReal),
      JSON.stringify({ projects: { [projectKey(linkDir)]: { teamRepo: 'acme/legacy' } } }),
    )
    expect(projectValues(w.settings(), realDir)).toEqual({ teamRepo: 'acme/legacy' })
    await saveProjectValues(viaReal, realDir, { teamUrl: 'https://team.example' })
    expect(w.settings().projects).toEqual({
      [projectKey(realDir)]: { teamRepo: 'acme/legacy', teamUrl: 'https://team.example' },
    })
  })
})
