import { isAbsent, rethrowUnless } from '../../../src-shared/errors.js'
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
    rethrowUnless(isAbsent(e), e)
    return undefined
  }
  const url = originUrl(config)
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
