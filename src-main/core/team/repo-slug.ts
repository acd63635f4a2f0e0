import { isAbsent, rethrowUnless } from '../../../src-shared/errors.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { findCanonicalGitRoot } from '../paths/git-root.js'

/**
 * `owner/name` from a git remote URL (ssh, https, or scp-like), or undefined when its path is not
 * exactly two parts: a GitLab subgroup (`group/sub/app`), Azure DevOps (`org/project/_git/app`),
 * Bitbucket Server (`scm/proj/app`) or a local path. Their last two parts would be a name that
 * many projects share (every Azure repo `app` is `_git/app`), and a team repo shared by accident
 * carries one project's memory into another: such a project types its repo instead.
 */
export function parseRepoSlug(url: string): string | undefined {
  const path = remotePath(url.trim())
  const parts = path
    ?.replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .split('/')
    .filter((p, i) => p !== '' || i > 0)
  if (parts?.length !== 2 || parts.some((p) => !p || /\s/.test(p))) return undefined
  return parts.join('/')
}

/** The path part of a remote: after `host/` in a URL, after `host:` in scp-like syntax. */
function remotePath(url: string): string | undefined {
  const full = /^[a-z][a-z0-9+.-]*:\/\/[^/]*\/(.*)$/i.exec(url)
  if (full) return /^file:/i.test(url) ? undefined : full[1]
  // scp-like `[user@]host:path`: no slash before the colon (else it is a local path).
  const scp = /^(?:[^@/]+@)?[^:/]+:(?!\/\/)(.*)$/.exec(url)
  return scp?.[1]
}

/** The project's git origin URL, as git reads it from the canonical root's config. */
export function getOriginUrl(projectRoot: string): string | undefined {
  const root = findCanonicalGitRoot(projectRoot)
  if (!root) return undefined
  let config: string
  try {
    config = readFileSync(join(root, '.git', 'config'), 'utf8')
  } catch (e) {
    rethrowUnless(isAbsent(e), e)
    return undefined
  }
  return originUrl(config)
}

/** The repo slug from the `origin` remote of the project's canonical git root. */
export function getRepoSlug(projectRoot: string): string | undefined {
  const url = getOriginUrl(projectRoot)
  return url ? parseRepoSlug(url) : undefined
}

/**
 * `remote.origin.url` from a git config file's text, as git reads it: section and key names in any
 * case (`[Remote "origin"]`, `URL =`), the value quoted or bare, a `#` or `;` comment after it.
 * The first one counts (`git remote add` writes one).
 */
export function originUrl(config: string): string | undefined {
  let inOrigin = false
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim()
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line)
    if (section) {
      inOrigin = section[1]!.toLowerCase() === 'remote' && section[2] === 'origin'
      continue
    }
    const entry = inOrigin && /^url\s*=\s*(.*)$/i.exec(line)
    if (!entry) continue
    const value = gitConfigValue(entry[1]!)
    if (value) return value
  }
  return undefined
}

/** A git config value: quotes removed, `\"` and `\\` unescaped, a comment outside quotes dropped. */
function gitConfigValue(text: string): string {
  let out = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\' && i + 1 < text.length) out += text[++i]
    else if (c === '"') quoted = !quoted
    else if (!quoted && (c === '#' || c === ';')) break
    else out += c
  }
  return out.trim()
}
