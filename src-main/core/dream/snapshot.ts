import { readTextFile } from '../store/regular-file.js'
import { ignoreFsError, isMissing, orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { walkFiles } from '../store/walk-files.js'
import { readIfExists, writeFileAtomic } from '../store/atomic-write.js'
import { resolveContainedPath } from '../store/contained-path.js'

/** Every Markdown file of a memory dir as it was before a run changed it. */
export interface MemorySnapshot {
  id: string
  createdAt: number
  memoryDir: string
  reason: string
  files: Record<string, string>
}

export type FileChange = { path: string; change: 'created' | 'modified' | 'deleted' }

async function readAllMarkdown(memoryDir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  let names: string[]
  try {
    names = await walkFiles(memoryDir)
  } catch (e) {
    rethrowUnless(isMissing(e), e)
    return files
  }
  for (const name of names.sort()) {
    if (!name.endsWith('.md')) continue
    const content = await orIfMissing(readTextFile(join(memoryDir, name)), null)
    if (content !== null) files[name] = content
  }
  return files
}

/** Captures the dir and stores it under `snapshotDir` (outside the memory dir). */
export async function createSnapshot(
  memoryDir: string,
  snapshotDir: string,
  reason: string,
  now = Date.now(),
): Promise<MemorySnapshot> {
  const snap: MemorySnapshot = {
    id: `${new Date(now).toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`,
    createdAt: now,
    memoryDir,
    reason,
    files: await readAllMarkdown(memoryDir),
  }
  await mkdir(snapshotDir, { recursive: true })
  await writeFileAtomic(join(snapshotDir, `${snap.id}.json`), JSON.stringify(snap))
  return snap
}

export async function loadSnapshot(snapshotDir: string, id: string): Promise<MemorySnapshot> {
  if (!/^[\w-]+$/.test(id)) throw new Error(`invalid snapshot id: ${id}`)
  return JSON.parse(await readFile(join(snapshotDir, `${id}.json`), 'utf8')) as MemorySnapshot
}

/** What changed in the dir since the snapshot. */
export async function diffSnapshot(snap: MemorySnapshot): Promise<FileChange[]> {
  const now = await readAllMarkdown(snap.memoryDir)
  const changes: FileChange[] = []
  for (const [path, content] of Object.entries(snap.files)) {
    if (!(path in now)) changes.push({ path, change: 'deleted' })
    else if (now[path] !== content) changes.push({ path, change: 'modified' })
  }
  for (const path of Object.keys(now)) if (!(path in snap.files)) changes.push({ path, change: 'created' })
  return changes.sort((a, b) => a.path.localeCompare(b.path))
}

/** Puts every file back byte for byte and removes the ones created since. Returns what it changed. */
export async function restoreSnapshot(snap: MemorySnapshot): Promise<FileChange[]> {
  const changes = await diffSnapshot(snap)
  for (const c of changes) {
    const path = await resolveContainedPath(snap.memoryDir, c.path)
    if (c.change === 'created') {
      await unlink(path).catch(ignoreFsError)
      continue
    }
    const content = snap.files[c.path] as string
    if ((await readIfExists(path)) === content) continue
    await mkdir(dirname(path), { recursive: true })
    await writeFileAtomic(path, content)
  }
  return changes
}
