import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { tempDir } from './temp-env.js'

/** A real git repository (a temp dir unless `root` is given); commits carry the times they are given. */
export function gitRepo(root = tempDir()) {
  const git = (args: string[], at = Date.UTC(2026, 0, 1)) =>
    execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
        GIT_AUTHOR_DATE: new Date(at).toISOString(),
        GIT_COMMITTER_DATE: new Date(at).toISOString(),
      },
    })
  git(['init', '-q', '-b', 'main'])
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true })
    writeFileSync(join(root, rel), text)
  }
  const commit = (msg: string, at: number) => {
    git(['add', '-A'])
    git(['commit', '-q', '-m', msg], at)
  }
  return { root, git, put, commit }
}
