import { chmodSync, linkSync, lstatSync, readFileSync, readlinkSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSession } from '../helpers/cli.js'
import { changesOutside, snapshotTree } from '../helpers/home-snapshot.js'
import { sandbox, writeFile } from '../helpers/temp-env.js'

/**
 * Claude Code's settings file as users keep it: a symlink or a hard link into a dotfiles repository, a mode they
 * chose, or read-only on purpose. `memdir hooks install` writes through the link to its target,
 * keeps the mode (and owner), and refuses a read-only file with a clear message.
 */

const settingsText = '{\n  "model": "opus",\n  "permissions": { "allow": ["Bash(ls:*)"] }\n}\n'

describe('hooks install on files someone arranged', () => {
  it('writes through a symlinked ~/.claude/settings.json: the link stays, its target gets the hooks, its mode is kept', async () => {
    const sb = sandbox()
    const target = writeFile(join(sb.home, 'dotfiles', 'claude', 'settings.json'), settingsText)
    chmodSync(target, 0o640)
    const link = join(sb.configDir, 'settings.json')
    symlinkSync(target, link)
    const run = cliSession({ ...sb.env, MEMDIR_DATA_DIR: join(sb.home, '.memdir') }, sb.project)
    expect(await run.run(['hooks', 'install'])).toBe(0)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readlinkSync(link)).toBe(target)
    const after = readFileSync(target, 'utf8')
    expect(after).toContain('"model": "opus"')
    expect(after).toMatch(/memdir(\.js)?["']? hook prompt/)
    expect(statSync(target).mode & 0o777).toBe(0o640)
    // Uninstall goes through the link too and gives back the bytes it found.
    expect(await run.run(['hooks', 'uninstall'])).toBe(0)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe(settingsText)
    expect(statSync(target).mode & 0o777).toBe(0o640)
  })

  it('refuses a read-only settings file with a clear error and leaves it exactly as it was', async () => {
    const sb = sandbox()
    const file = writeFile(join(sb.configDir, 'settings.json'), settingsText)
    chmodSync(file, 0o444)
    const before = snapshotTree(sb.home)
    const run = cliSession({ ...sb.env, MEMDIR_DATA_DIR: join(sb.home, '.memdir') }, sb.project)
    expect(await run.run(['hooks', 'install'])).toBe(1)
    expect(run.io.stderr).toMatch(/read-only \(mode 444\)/)
    expect(readFileSync(file, 'utf8')).toBe(settingsText)
    expect(statSync(file).mode & 0o777).toBe(0o444)
    expect(changesOutside(before, snapshotTree(sb.home), ['.memdir'])).toEqual([])
  })

  it('writes through a symlinked project settings file as well', async () => {
    const sb = sandbox()
    const shared = writeFile(join(sb.root, 'shared', 'settings.json'), '{}\n')
    chmodSync(shared, 0o600)
    const link = join(sb.project, '.claude', 'settings.json')
    writeFile(join(sb.project, '.claude', '.keep'), '')
    symlinkSync(shared, link)
    const run = cliSession({ ...sb.env, MEMDIR_DATA_DIR: join(sb.home, '.memdir') }, sb.project)
    expect(await run.run(['hooks', 'install', '--scope', 'project'])).toBe(0)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(shared, 'utf8')).toContain('UserPromptSubmit')
    expect(statSync(shared).mode & 0o777).toBe(0o600)
  })

  it('writes a hard-linked settings file in its own inode: the dotfiles copy gets the hooks too, and uninstall gives both back', async () => {
    const sb = sandbox()
    const original = writeFile(join(sb.home, 'dotfiles', 'claude', 'settings.json'), settingsText)
    chmodSync(original, 0o600)
    const placed = join(sb.configDir, 'settings.json')
    linkSync(original, placed)
    const inode = statSync(placed).ino
    const run = cliSession({ ...sb.env, MEMDIR_DATA_DIR: join(sb.home, '.memdir') }, sb.project)
    expect(await run.run(['hooks', 'install'])).toBe(0)
    expect(statSync(placed).ino).toBe(inode)
    expect(statSync(placed).nlink).toBe(2)
    expect(readFileSync(original, 'utf8')).toMatch(/memdir(\.js)?["']? hook prompt/)
    expect(readFileSync(original, 'utf8')).toBe(readFileSync(placed, 'utf8'))
    expect(statSync(original).mode & 0o777).toBe(0o600)
    expect(await run.run(['hooks', 'uninstall'])).toBe(0)
    expect(statSync(placed).ino).toBe(inode)
    expect(readFileSync(original, 'utf8')).toBe(settingsText)
  })
})
