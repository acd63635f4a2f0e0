import { join } from 'node:path'
import type { MemoryDoc, MemoryListItem, MemoryScope } from '../../../src-shared/types.js'
import { TEAM_DIRNAME } from '../../core/paths/team-agent-paths.js'
import { memoryAge, memoryAgeDays } from '../../core/recall/freshness.js'
import type { MemoryRecord } from '../../core/store/memory-files.js'
import type { MemoryHeader } from '../../core/store/scan.js'

export const AGENT_PREFIX = '@agent/'

/** Subagent memories of a project (`.claude/agent-memory/`): listed read-only under `@agent/`. */
export function agentMemoryRoot(projectRoot: string): string {
  return join(projectRoot, '.claude', 'agent-memory')
}

export function scopeOf(relPath: string): MemoryScope {
  if (relPath.startsWith(AGENT_PREFIX)) return 'agent'
  return relPath.startsWith(`${TEAM_DIRNAME}/`) ? 'team' : 'private'
}

export function listItemOf(h: MemoryHeader, relPath = h.filename, now = Date.now()): MemoryListItem {
  return {
    relPath,
    name: h.name ?? relPath.split('/').pop()!.replace(/\.md$/, ''),
    description: h.description,
    type: h.type ?? null,
    scope: scopeOf(relPath),
    mtimeMs: h.mtimeMs,
    age: memoryAge(h.mtimeMs, now),
    ageDays: memoryAgeDays(h.mtimeMs, now),
  }
}

export function docOf(r: MemoryRecord, relPath = r.relPath): MemoryDoc {
  return {
    ...listItemOf(
      {
        filename: relPath,
        filePath: r.path,
        mtimeMs: r.mtimeMs,
        name: r.name,
        description: r.description,
        type: r.type,
      },
      relPath,
    ),
    body: r.body,
    raw: r.raw,
    hash: r.hash,
    ...(r.linkedTo ? { linkedTo: r.linkedTo } : {}),
  }
}
