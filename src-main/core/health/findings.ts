/** What health found, and what can be done about it. */

export type FindingKind =
  | 'dead-pointer'
  | 'link-outside'
  | 'index-not-file'
  | 'index-unreadable'
  | 'unindexed'
  | 'index-cut'
  | 'long-index-line'
  | 'path-gone'
  | 'path-changed'
  | 'command-gone'
  | 'symbol-gone'
  | 'duplicate-name'
  | 'near-duplicate'
  | 'contradiction'
  | 'invalid-frontmatter'
  | 'weak-frontmatter'
  | 'oversized'
  | 'secret'

export type Severity = 'error' | 'warning' | 'info'

export type FixKind =
  'remove-pointer' | 'add-pointer' | 'compact-index' | 'verify' | 'update-path' | 'merge' | 'open'

export interface Finding {
  /** Stable across runs for the same problem (kind + files + subject), so a UI can track it. */
  id: string
  kind: FindingKind
  severity: Severity
  /** The memory (or MEMORY.md) the finding is about, relative to the memory dir. */
  path: string
  /** A second memory, for duplicates. */
  other?: string
  message: string
  /** What shows it: commit lines, the matching text, the cut lines. */
  evidence: string[]
  fixes: FixKind[]
  /** For code links: the path, command or symbol the memory names, and where a path went. */
  subject?: string
  movedTo?: string
}

export const SEVERITY_OF: Record<FindingKind, Severity> = {
  'dead-pointer': 'error',
  'link-outside': 'error',
  'index-not-file': 'error',
  'index-unreadable': 'warning',
  'index-cut': 'error',
  'invalid-frontmatter': 'error',
  'path-gone': 'warning',
  'path-changed': 'warning',
  'command-gone': 'warning',
  'symbol-gone': 'info',
  unindexed: 'warning',
  'long-index-line': 'info',
  'duplicate-name': 'warning',
  'near-duplicate': 'warning',
  contradiction: 'warning',
  'weak-frontmatter': 'warning',
  oversized: 'info',
  secret: 'warning',
}

export function finding(
  kind: FindingKind,
  path: string,
  message: string,
  evidence: string[],
  fixes: FixKind[],
  extra: Partial<Pick<Finding, 'other' | 'subject' | 'movedTo' | 'severity'>> = {},
): Finding {
  const id = [kind, path, extra.other ?? '', extra.subject ?? ''].join('|')
  return { id, kind, severity: extra.severity ?? SEVERITY_OF[kind], path, message, evidence, fixes, ...extra }
}
