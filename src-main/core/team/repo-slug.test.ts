import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { getRepoSlug, originUrl, parseRepoSlug } from './repo-slug.js'
import { sandbox } from '../../../test/helpers/temp-env.js'
import { resolveTeamSetup } from '../../host/team/team-setup.js'
import { teamRepoProblem } from '../../../src-shared/team-repo.js'

describe('the origin remote', () => {
  it('is read as git reads it: any case, quoted, with a comment after it', () => {
    const config = [
      '[core]',
      '\trepositoryformatversion = 0',
      '[remote "upstream"]',
      '\turl = git@github.com:other/fork.git',
      '[Remote "origin"]',
      '\tURL = "git@github.com:acme/shop.git" # the team repo',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
    ].join('\r\n')
    expect(originUrl(config)).toBe('git@github.com:acme/shop.git')
    expect(originUrl('[remote "origin"]\n  url=https://github.com/acme/shop ; mirror\n')).toBe(
      'https://github.com/acme/shop',
    )
    expect(originUrl('[remote "Origin"]\n  url = x\n')).toBeUndefined() // the remote's name is exact
    expect(parseRepoSlug(originUrl('[remote "origin"]\n\turl = "https://github.com/acme/shop.git"\n')!)).toBe(
      'acme/shop',
    )
  })

  it('agrees with git itself on the file git wrote', () => {
    const dir = tempDir()
    execFileSync('git', ['init', '-q'], { cwd: dir })
    execFileSync('git', ['remote', 'add', 'origin', 'git@github.com:acme/shop.git'], { cwd: dir })
    execFileSync('git', ['config', 'remote.origin.url', 'https://github.com/acme/shop;v2.git'], { cwd: dir })
    const byGit = execFileSync('git', ['config', '--get', 'remote.origin.url'], {
      cwd: dir,
      encoding: 'utf8',
    }).trim()
    expect(originUrl(readFileSync(join(dir, '.git', 'config'), 'utf8'))).toBe(byGit)
  })
})

describe('the repo a project syncs by default', () => {
  it.each([
    ['git@github.com:acme/shop.git', 'acme/shop'],
    ['https://github.com/acme/shop', 'acme/shop'],
    ['https://token@github.com/acme/shop.git/', 'acme/shop'],
    ['ssh://git@git.example.com:2222/acme/shop.git', 'acme/shop'],
    ['git@github.com:/acme/shop.git', 'acme/shop'],
  ])('is owner/name from an origin that names one: %s', (url, slug) => {
    expect(parseRepoSlug(url)).toBe(slug)
  })

  it.each([
    'git@gitlab.com:platform/shared/app.git',
    'https://gitlab.com/platform/shared/app.git',
    'https://dev.azure.com/org/project/_git/app',
    'git@ssh.dev.azure.com:v3/org/project/app',
    'https://bitbucket.example.com/scm/proj/app.git',
    '/srv/git/acme/shop.git',
    'file:///srv/git/shop.git',
    'C:/repos/acme/shop',
  ])(
    'is none from an origin whose path is not owner/name (its last two parts are shared by other projects): %s',
    (url) => {
      expect(parseRepoSlug(url)).toBeUndefined()
    },
  )

  it('two GitLab projects in subgroups of one name never share a team repo: each is told to name its own', () => {
    const setups = ['platform', 'payments'].map((group) => {
      const sb = sandbox({
        MEMDIR_TEAM_MEMORY: '1',
        MEMDIR_TEAM_URL: 'http://127.0.0.1:9',
        MEMDIR_TEAM_TOKEN: 't',
      })
      execFileSync('git', ['init', '-q'], { cwd: sb.project })
      const origin = `https://ci:glpat-secret@gitlab.com/${group}/shared/app.git`
      execFileSync('git', ['remote', 'add', 'origin', origin], { cwd: sb.project })
      expect(getRepoSlug(sb.project)).toBeUndefined()
      return resolveTeamSetup(sb.ctx())
    })
    for (const [i, setup] of setups.entries()) {
      expect(setup.ok).toBe(false)
      const reason = setup.ok ? '' : setup.reason
      expect(reason).toBe(
        `cannot tell the repo: the git origin "https://gitlab.com/${['platform', 'payments'][i]}/shared/app.git" names no owner/name repo (set it on the Team sync page, or MEMDIR_TEAM_REPO)`,
      )
      expect(reason).not.toContain('glpat')
    }
  })
})

describe('a team repo typed by hand', () => {
  it.each(['acme', 'acme/app/x', '../..', 'acme/ap p'])(
    '%j is refused before any request, by the rule the server applies',
    (repo) => {
      const sb = sandbox({
        MEMDIR_TEAM_MEMORY: '1',
        MEMDIR_TEAM_URL: 'http://127.0.0.1:9',
        MEMDIR_TEAM_TOKEN: 't',
        MEMDIR_TEAM_REPO: repo,
      })
      const setup = resolveTeamSetup(sb.ctx())
      expect(setup).toMatchObject({
        ok: false,
        state: 'not-configured',
        reason: `the team repo is refused: ${teamRepoProblem(repo)} (set it on the Team sync page, or MEMDIR_TEAM_REPO)`,
      })
    },
  )
})
