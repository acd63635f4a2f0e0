import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { originUrl, parseRepoSlug } from './repo-slug.js'

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
