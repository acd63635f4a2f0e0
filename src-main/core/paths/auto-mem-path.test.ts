import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath, isAutoMemPath, resolveAutoMemPath } from './auto-mem-path.js'
import { sanitizePath } from './sanitize.js'

beforeEach(() => clearAutoMemPathCache())

const json = (v: unknown) => JSON.stringify(v)

describe('getAutoMemPath', () => {
  it('defaults to <config>/projects/<sanitized project root>/memory/ outside git', () => {
    const sb = sandbox()
    const r = resolveAutoMemPath(sb.ctx())
    expect(r.source).toBe('default')
    expect(r.path).toBe(join(sb.configDir, 'projects', sanitizePath(sb.project), 'memory') + '/')
  })

  it('uses CLAUDE_CODE_REMOTE_MEMORY_DIR as the memory base', () => {
    const sb = sandbox()
    const remote = join(sb.root, 'remote')
    const r = resolveAutoMemPath(sb.ctx({ env: { ...sb.env, CLAUDE_CODE_REMOTE_MEMORY_DIR: remote } }))
    expect(r.path.startsWith(join(remote, 'projects') + '/')).toBe(true)
  })

  it('takes the env override first, as a literal absolute path', () => {
    const sb = sandbox()
    writeFile(
      join(sb.configDir, 'settings.json'),
      json({ autoMemoryDirectory: join(sb.root, 'from-settings') }),
    )
    const override = join(sb.root, 'cowork')
    const r = resolveAutoMemPath(sb.ctx({ env: { ...sb.env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: override } }))
    expect(r).toMatchObject({ source: 'env', path: override + '/' })
  })

  it('reads a settings file that starts with a byte order mark, as Claude Code does', () => {
    const sb = sandbox()
    // Notepad's UTF-8: both 2.1.88 and 2.1.337 run the hooks such a user settings.json names.
    writeFile(
      join(sb.configDir, 'settings.json'),
      '\uFEFF' + json({ autoMemoryDirectory: join(sb.root, 'from-settings') }),
    )
    expect(resolveAutoMemPath(sb.ctx())).toMatchObject({
      source: 'settings:user',
      path: join(sb.root, 'from-settings') + '/',
    })
  })

  it('rejects a bad env override with a reason and falls back to settings', () => {
    const sb = sandbox()
    writeFile(join(sb.configDir, 'settings.json'), json({ autoMemoryDirectory: '~/mem' }))
    const r = resolveAutoMemPath(sb.ctx({ env: { ...sb.env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '~/mem' } }))
    expect(r.source).toBe('settings:user')
    expect(r.path).toBe(join(sb.home, 'mem') + '/')
    expect(r.rejected).toEqual([{ source: 'env', value: '~/mem', reason: 'path must be absolute' }])
  })

  it('ignores a hostile project .claude/settings.json while the same key in user settings wins', () => {
    const sb = sandbox()
    writeFile(join(sb.project, '.claude', 'settings.json'), json({ autoMemoryDirectory: '~/.ssh' }))
    const onlyProject = resolveAutoMemPath(sb.ctx())
    expect(onlyProject.source).toBe('default')
    expect(onlyProject.path).not.toContain('.ssh')

    clearAutoMemPathCache()
    writeFile(join(sb.configDir, 'settings.json'), json({ autoMemoryDirectory: '~/my-memory' }))
    const r = resolveAutoMemPath(sb.ctx())
    expect(r).toMatchObject({ source: 'settings:user', path: join(sb.home, 'my-memory') + '/' })
  })

  it('prefers policy over flag over local over user settings', () => {
    const sb = sandbox()
    const ctx = sb.ctx({ flagSettingsPath: join(sb.root, 'flag.json') })
    writeFile(join(sb.configDir, 'settings.json'), json({ autoMemoryDirectory: '~/user' }))
    expect(resolveAutoMemPath(ctx).source).toBe('settings:user')
    clearAutoMemPathCache()
    writeFile(join(sb.project, '.claude', 'settings.local.json'), json({ autoMemoryDirectory: '~/local' }))
    expect(resolveAutoMemPath(ctx)).toMatchObject({
      source: 'settings:local',
      path: join(sb.home, 'local') + '/',
    })
    clearAutoMemPathCache()
    writeFile(join(sb.root, 'flag.json'), json({ autoMemoryDirectory: '~/flag' }))
    expect(resolveAutoMemPath(ctx).source).toBe('settings:flag')
    clearAutoMemPathCache()
    writeFile(ctx.policySettingsPath as string, json({ autoMemoryDirectory: '~/policy' }))
    expect(resolveAutoMemPath(ctx)).toMatchObject({
      source: 'settings:policy',
      path: join(sb.home, 'policy') + '/',
    })
  })

  it('falls back to the default when the settings value is rejected, recording why', () => {
    const sb = sandbox()
    writeFile(join(sb.configDir, 'settings.json'), json({ autoMemoryDirectory: '~/..' }))
    const r = resolveAutoMemPath(sb.ctx())
    expect(r.source).toBe('default')
    expect(r.rejected[0]).toMatchObject({ source: 'settings:user', value: '~/..' })
  })

  it('survives malformed settings JSON', () => {
    const sb = sandbox()
    writeFile(join(sb.configDir, 'settings.json'), '{ not json')
    expect(resolveAutoMemPath(sb.ctx()).source).toBe('default')
  })

  it('resolves two git worktrees of one repository to one memory dir', () => {
    const sb = sandbox()
    const repo = join(sb.root, 'repo')
    mkdirSync(repo)
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' })
    git(repo, 'init', '-q')
    writeFile(join(repo, 'README'), 'x')
    git(repo, 'add', '.')
    git(repo, 'commit', '-qm', 'init')
    const wt = join(sb.root, 'wt-feature')
    git(repo, 'worktree', 'add', '-q', wt)
    mkdirSync(join(wt, 'sub'))

    const main = getAutoMemPath(sb.ctx({ projectRoot: repo }))
    const linked = getAutoMemPath(sb.ctx({ projectRoot: wt }))
    const nested = getAutoMemPath(sb.ctx({ projectRoot: join(wt, 'sub') }))
    expect(linked).toBe(main)
    expect(nested).toBe(main)
    expect(main).toBe(join(sb.configDir, 'projects', sanitizePath(repo), 'memory') + '/')
  })

  it('does not trust a crafted .git file that points at another repository', () => {
    const sb = sandbox()
    const victim = join(sb.root, 'victim')
    mkdirSync(join(victim, '.git', 'worktrees', 'x'), { recursive: true })
    writeFile(join(victim, '.git', 'worktrees', 'x', 'commondir'), '../..')
    writeFile(join(victim, '.git', 'worktrees', 'x', 'gitdir'), '/somewhere/else/.git')
    const attacker = join(sb.root, 'attacker')
    writeFile(join(attacker, '.git'), `gitdir: ${join(victim, '.git', 'worktrees', 'x')}\n`)
    expect(resolveAutoMemPath(sb.ctx({ projectRoot: attacker })).projectBase).toBe(attacker)
  })

  it('memoizes per project root', () => {
    const sb = sandbox()
    const ctx = sb.ctx()
    const first = resolveAutoMemPath(ctx)
    writeFile(join(sb.configDir, 'settings.json'), json({ autoMemoryDirectory: '~/later' }))
    expect(resolveAutoMemPath(ctx)).toBe(first)
    clearAutoMemPathCache()
    expect(resolveAutoMemPath(ctx).source).toBe('settings:user')
  })
})

describe('isAutoMemPath', () => {
  it('is true inside the dir and false for escapes', () => {
    const sb = sandbox()
    const ctx = sb.ctx()
    const dir = getAutoMemPath(ctx)
    expect(isAutoMemPath(join(dir, 'a.md'), ctx)).toBe(true)
    expect(isAutoMemPath(join(dir, 'team', 'b.md'), ctx)).toBe(true)
    expect(isAutoMemPath(dir + '../outside.md', ctx)).toBe(false)
    expect(isAutoMemPath(dir.slice(0, -1) + '-evil/x.md', ctx)).toBe(false)
    expect(isAutoMemPath('relative.md', ctx)).toBe(false)
  })
})
