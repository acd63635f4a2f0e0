import { recordedCwds } from '../../core/sessions/recorded-cwds.js'
import { isMissing, messageOf, orIfUnreadable } from '../../../src-shared/errors.js'
import { existsSync, readFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { basename, join, sep } from 'node:path'
import { KnownWorkspacesSchema, type KnownWorkspaces } from '../../../src-shared/settings.js'
import { check } from '../../../src-shared/schema-common.js'
import type { WorkspaceSummary } from '../../../src-shared/types.js'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { getClaudeConfigDir } from '../../core/paths/base-dir.js'
import type { Env, ProjectContext } from '../../core/paths/context.js'
import { writeFileAtomic } from '../../core/store/atomic-write.js'
import { listMemoryFiles } from '../../core/store/scan.js'
import { getAppDataDir } from '../settings/app-data.js'
import { agentMemoryRoot } from '../memories/memory-views.js'
import { createProjectContext } from '../settings/project.js'
import type { ProjectCandidate } from '../settings/project-values.js'

const MAX_RECENTS = 20

/** One spelling per memory dir (with its trailing separator, as getAutoMemPath returns it). */
export const dirKey = (dir: string) => (dir.endsWith(sep) ? dir : dir + sep)

const knownFile = (ctx: ProjectContext) => join(getAppDataDir(ctx), 'workspaces.json')

export function readKnownWorkspaces(ctx: ProjectContext): KnownWorkspaces {
  try {
    const r = check(KnownWorkspacesSchema, JSON.parse(readFileSync(knownFile(ctx), 'utf8')))
    return r.ok ? r.value : {}
  } catch (e) {
    if (!isMissing(e))
      process.emitWarning(
        `memdir: ${knownFile(ctx)} cannot be used (${messageOf(e)}); opened folders start over`,
      )
    return {}
  }
}

async function saveKnown(ctx: ProjectContext, known: KnownWorkspaces) {
  await writeFileAtomic(knownFile(ctx), JSON.stringify(known, null, 2) + '\n')
}

/** A folder the user opened: first in the recents. */
export async function rememberRecent(ctx: ProjectContext, projectRoot: string): Promise<void> {
  const known = readKnownWorkspaces(ctx)
  const recents = [
    { projectRoot, at: Date.now() },
    ...(known.recents ?? []).filter((r) => r.projectRoot !== projectRoot),
  ]
  await saveKnown(ctx, { ...known, recents: recents.slice(0, MAX_RECENTS) })
}

/** The project folder the user picked for a memory dir that no transcript names. */
export async function rememberRoot(
  ctx: ProjectContext,
  memoryDir: string,
  projectRoot: string,
): Promise<void> {
  const known = readKnownWorkspaces(ctx)
  await saveKnown(ctx, { ...known, roots: { ...known.roots, [dirKey(memoryDir)]: projectRoot } })
}

/**
 * The project path Claude Code recorded (`cwd`) in a transcript of a project dir — one whose
 * memory dir is this one. A `cwd` that maps elsewhere (the folder moved, a symlinked path, a
 * subfolder of another repository) is not this project: opening it would open another memory dir.
 */
async function projectRootFromTranscripts(
  dir: string,
  isThisProject: (root: string) => boolean,
): Promise<string | undefined> {
  const names = (await orIfUnreadable(readdir(dir), [] as string[]))
    .filter((n) => n.endsWith('.jsonl'))
    .slice(0, 5)
  const tried = new Set<string>()
  for (const n of names) {
    for (const root of await recordedCwds(join(dir, n), 20_000)) {
      if (tried.has(root)) continue
      tried.add(root)
      if (isThisProject(root)) return root
    }
  }
  return undefined
}

/** What the browser lists for a workspace: its memory files and its project's agent memories. */
export async function countMemories(memoryDir: string, projectRoot: string): Promise<number> {
  const own = (await listMemoryFiles(memoryDir)).length
  return own + (projectRoot ? (await listMemoryFiles(agentMemoryRoot(projectRoot))).length : 0)
}

const labelOf = (root: string, fallback: string) => (root ? basename(root) : fallback)

/**
 * Every workspace: each project under Claude Code's projects dir that has a memory dir — with or
 * without transcripts left — and every folder opened by path. One entry per memory dir.
 */
export async function discoverWorkspaces(
  base: ProjectContext,
  env: Env,
  openRoot?: string,
  /** How a workspace's memories are counted (the open one from its index, not by listing again). */
  count: (memoryDir: string, projectRoot: string) => Promise<number> = countMemories,
): Promise<WorkspaceSummary[]> {
  const known = readKnownWorkspaces(base)
  const memoryDirOf = (root: string) => dirKey(getAutoMemPath(createProjectContext({ cwd: root, env })))
  // The folder open right now is known even before it is remembered as a recent.
  const recents = [...(openRoot ? [{ projectRoot: openRoot, at: Date.now() }] : []), ...(known.recents ?? [])]
  const projects = join(getClaudeConfigDir(base), 'projects')
  const byDir = new Map<string, WorkspaceSummary>()
  for (const name of await orIfUnreadable(readdir(projects), [] as string[])) {
    const memoryDir = dirKey(join(projects, name, 'memory'))
    if (!existsSync(memoryDir)) continue
    const mapsHere = (root: string) => memoryDirOf(root) === memoryDir
    const picked = known.roots?.[memoryDir]
    const root =
      (await projectRootFromTranscripts(join(projects, name), mapsHere)) ??
      (picked && mapsHere(picked) ? picked : '')
    byDir.set(memoryDir, {
      projectRoot: root,
      label: labelOf(root, name),
      memoryDir,
      memoryCount: await count(memoryDir, root),
      recent: false,
    })
  }
  for (const r of recents) {
    if (!existsSync(r.projectRoot)) continue
    const memoryDir = memoryDirOf(r.projectRoot)
    const listed = byDir.get(memoryDir)
    if (listed) {
      if (!listed.projectRoot)
        Object.assign(listed, {
          projectRoot: r.projectRoot,
          label: labelOf(r.projectRoot, listed.label),
          // With its folder known, its agent memories count too.
          memoryCount: await count(memoryDir, r.projectRoot),
        })
      continue
    }
    byDir.set(memoryDir, {
      projectRoot: r.projectRoot,
      label: labelOf(r.projectRoot, r.projectRoot),
      memoryDir,
      memoryCount: await count(memoryDir, r.projectRoot),
      recent: true,
    })
  }
  return [...byDir.values()].sort((a, b) => b.memoryCount - a.memoryCount || a.label.localeCompare(b.label))
}

/**
 * The projects team values saved before they were per project may belong to: each folder the user
 * opened (with when), then every listed project (busiest first), then `fallback` (the one asked for).
 */
export async function teamMigrationCandidates(
  base: ProjectContext,
  env: Env,
  fallback?: string,
): Promise<ProjectCandidate[]> {
  const memoryDirOf = (root: string) => dirKey(getAutoMemPath(createProjectContext({ cwd: root, env })))
  const opened = (readKnownWorkspaces(base).recents ?? [])
    .filter((r) => existsSync(r.projectRoot))
    .map((r) => ({ projectRoot: r.projectRoot, memoryDir: memoryDirOf(r.projectRoot), openedAt: r.at }))
  const listed = (await discoverWorkspaces(base, env))
    .filter((w) => w.projectRoot)
    .map((w) => ({ projectRoot: w.projectRoot, memoryDir: w.memoryDir }))
  const asked = fallback ? [{ projectRoot: fallback, memoryDir: memoryDirOf(fallback) }] : []
  // The one asked for comes first among equals: the app opens it (the command line runs in it).
  return [...opened, ...asked, ...listed]
}
