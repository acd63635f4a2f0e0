import { isAbsolute, join, normalize, posix, win32 } from 'node:path'

export type PathValidation = { ok: true; path: string } | { ok: false; reason: string }

function stripTrailingSeparators(p: string): string {
  let out = p
  while (out.length > 1 && /[\\/]$/.test(out) && !/^[A-Za-z]:[\\/]$/.test(out)) out = out.slice(0, -1)
  return out
}

function isAbsoluteAnyPlatform(p: string): boolean {
  return isAbsolute(p) || posix.isAbsolute(p) || win32.isAbsolute(p)
}

/**
 * Checks a candidate memory directory (SPEC §1, §10). Returns the normalized path with exactly
 * one trailing separator, NFC-normalized, or the reason it was refused.
 * `expandTilde` is true only for settings values; env overrides are taken literally.
 */
export function checkMemoryPath(
  raw: unknown,
  opts: { expandTilde: boolean; homeDir: string },
): PathValidation {
  if (typeof raw !== 'string') return { ok: false, reason: 'not a string' }
  if (raw.length === 0 || raw.trim().length === 0) return { ok: false, reason: 'empty path' }
  if (raw.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' }
  if (raw.startsWith('\\\\') || raw.startsWith('//'))
    return { ok: false, reason: 'UNC paths are not allowed' }

  let candidate = raw
  if (opts.expandTilde && (raw === '~' || raw.startsWith('~/') || raw.startsWith('~\\'))) {
    if (raw === '~') return { ok: false, reason: 'bare "~" would be the home directory itself' }
    const remainder = normalize(raw.slice(2))
    const trimmed = stripTrailingSeparators(remainder)
    if (trimmed === '.' || trimmed === '..' || trimmed.startsWith('../') || trimmed.startsWith('..\\')) {
      return { ok: false, reason: `"${raw}" expands to the home directory or above` }
    }
    candidate = join(opts.homeDir, remainder)
  }

  if (/^[A-Za-z]:$/.test(candidate)) return { ok: false, reason: 'a bare drive letter is not a directory' }
  if (!isAbsoluteAnyPlatform(candidate)) return { ok: false, reason: 'path must be absolute' }

  const normalized = stripTrailingSeparators(normalize(candidate))
  if (normalized === '/' || /^[A-Za-z]:[\\/]?$/.test(normalized)) {
    return { ok: false, reason: 'a filesystem root is not allowed' }
  }
  if (normalized.length < 3) return { ok: false, reason: 'path is too short' }
  if (normalized.startsWith('\\\\') || normalized.startsWith('//')) {
    return { ok: false, reason: 'UNC paths are not allowed' }
  }
  const sep = win32.isAbsolute(normalized) && !posix.isAbsolute(normalized) ? '\\' : '/'
  return { ok: true, path: (normalized + sep).normalize('NFC') }
}

/** SPEC name: the validated path, or undefined when rejected. */
export function validateMemoryPath(
  raw: unknown,
  opts: { expandTilde: boolean; homeDir: string },
): string | undefined {
  const r = checkMemoryPath(raw, opts)
  return r.ok ? r.path : undefined
}
