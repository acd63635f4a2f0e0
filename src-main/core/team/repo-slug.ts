import { rethrowUnless, isMissing, errnoOf } from '../../../src-shared/errors.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { findCanonicalGitRoot } from '../paths/git-root.js'

/** `owner/name` from a git remote URL (ssh, https, or scp-like). */
export function parseRepoSlug(url: string): string | undefined {
  const m = /[:/]([^/:\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(url.trim())
  return m ? `${m[1]}/${m[2]}` : undefined
}

/** The repo slug from the `origin` remote of the project's canonical git root. */
export function getRepoSlug(projectRoot: string): string | undefined {
  const root = findCanonicalGitRoot(projectRoot)
  if (!root) return undefined
  let config: string
  try {
    config = readFileSync(join(root, '.git', 'config'), 'utf8')
  } catch (e) {
    rethrowUnless(isMissing(e) || errnoOf(e) === 'ENOTDIR', e)
    return undefined
  }
  const section = /\[remote "origin"\]([\s\S]*?)(?=\n\[|$)/.exec(config)
  const url = section && /^\s*url\s*=\s*(.+)$/m.exec(section[1] as string)
  return url ? parseRepoSlug(url[1] as string) : undefined
}
