import type { MemoryStamp } from './memory-format.js'
import { stampedUnlessUnchanged, stampMemoryText } from './memory-stamps.js'
import { errnoOf, isAbsent, MemdirError } from '../../../src-shared/errors.js'
import { formatBytes, MAX_MEMORY_BYTES, MAX_OPENED_MEMORY_BYTES } from '../../../src-shared/limits.js'
import { checkMemoryName, checkMemoryTitle } from '../../../src-shared/memory-names.js'
import { memoryFileSlug } from './file-slug.js'
import { link, lstat, mkdir, readdir, readlink, rename, stat, symlink, unlink } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, posix, relative, resolve } from 'node:path'
import { ENTRYPOINT_NAME } from '../paths/auto-mem-path.js'
import { TEAM_DIRNAME } from '../paths/team-agent-paths.js'
import {
  ConflictError,
  existingMode,
  readIfExists,
  refuseReadOnly,
  replaceFileIfUnchanged,
  sha256Hex,
  writeFileIfUnchanged,
} from './atomic-write.js'
import { withFileLock } from './file-lock.js'
import { resolveContainedPath, resolveReadablePath } from './contained-path.js'
import {
  type MemoryFields,
  type MemoryFormat,
  type ParsedMemory,
  parseMemoryFile,
  serializeMemoryFile,
} from './frontmatter.js'
import {
  checkPointerTarget,
  type PointerFields,
  type PointerUpsert,
  removeIndexLine,
  movedOutOfIndex,
  removeIndexLines,
  replaceIndexLine,
  retargetedIndex,
  retargetedLine,
  upsertIndexLine,
  upsertIndexLines,
} from './index-lines.js'
import type { MemoryType } from './memory-types.js'
import { guardMemoryWrite, isTeamPath } from '../secrets/secret-guard.js'
import { twinNameProblem } from './twin-names.js'
import { rewriteMemoryFile } from './memory-rewrite.js'
import { readRegularFile } from './regular-file.js'
import { checkIndexWritable, indexNotAFile, readIndexText } from './index-file.js'
import { type RecordedWrite, unrecordedWrite } from './recorded-write.js'

export interface MemoryRecord {
  /** Relative to the memory dir, `/`-separated. */
  relPath: string
  path: string
  raw: string
  /** sha256 of `raw`: pass it back to update/delete to prove you saw the current version. */
  hash: string
  mtimeMs: number
  name?: string
  description: string | null
  type?: MemoryType
  body: string
  data: Record<string, unknown>
  /** Where a symlink really keeps it, when that is outside the memory dir (then it is read-only). */
  linkedTo?: string
}

/** Which MEMORY.md indexes a file: team files have their own index in team/. */
export function indexLocationFor(relPath: string): { indexRel: string; pointer: string } {
  if (relPath.startsWith(`${TEAM_DIRNAME}/`)) {
    return { indexRel: `${TEAM_DIRNAME}/${ENTRYPOINT_NAME}`, pointer: relPath.slice(TEAM_DIRNAME.length + 1) }
  }
  return { indexRel: ENTRYPOINT_NAME, pointer: relPath }
}

/**
 * Where a memory may be written: inside the memory dir also through symlinks. One a link keeps
 * outside is read-only (READ_ONLY, saying where it lives); other escapes are INVALID_PATH.
 */
async function resolveMemoryPath(memoryDir: string, relPath: string): Promise<string> {
  if (!relPath.endsWith('.md')) throw new MemdirError('INVALID_PATH', `memory files end in .md: ${relPath}`)
  if (posix.basename(relPath) === ENTRYPOINT_NAME) {
    throw new MemdirError('INVALID_PATH', 'MEMORY.md is the index, not a memory')
  }
  return writablePath(memoryDir, relPath, 'Edit it where it lives.')
}

/**
 * `rel` under the memory dir, to be written there or through a symlink that stays inside it (the
 * write changes its target, the link stays). A link leading outside is read-only (READ_ONLY,
 * saying where it leads and `advice`); other escapes are INVALID_PATH.
 */
async function writablePath(memoryDir: string, rel: string, advice: string): Promise<string> {
  const { linkedTo } = await resolveReadablePath(memoryDir, rel)
  if (linkedTo)
    throw new MemdirError(
      'READ_ONLY',
      `${rel} is a symlink to ${linkedTo}, outside the memory dir: Memdir reads it but never writes through it. ${advice}`,
      { linkedTo },
    )
  return resolveContainedPath(memoryDir, rel)
}

/**
 * Where a memory that does not exist yet may be written: its name passes the one name rule
 * (src-shared/memory-names.ts) that every writer applies, and it stays inside the memory dir.
 */
export async function resolveNewMemoryPath(
  memoryDir: string,
  relPath: string,
  replacing?: string,
): Promise<string> {
  checkMemoryName(relPath)
  if (posix.basename(relPath) === ENTRYPOINT_NAME)
    throw new MemdirError('INVALID_NAME', `${ENTRYPOINT_NAME} is the index, not a memory`)
  const twin = await twinNameProblem(memoryDir, relPath, replacing)
  if (twin) throw new MemdirError('INVALID_NAME', twin, { name: relPath })
  const path = await resolveMemoryPath(memoryDir, relPath)
  await checkFoldersOnPath(path, relPath)
  return path
}

/** INVALID_NAME when a folder on a new file's path is a file (`a.md/b.md` beside `a.md`). */
export async function checkFoldersOnPath(path: string, relPath: string): Promise<void> {
  const parent = await stat(dirname(path)).catch((e: unknown) => errnoOf(e))
  if (parent === 'ENOTDIR' || (typeof parent === 'object' && !parent.isDirectory()))
    throw new MemdirError('INVALID_NAME', `${relPath}: a folder on its path is a file`, { name: relPath })
}

/** The file as written, unless it is over the one memory size limit (TOO_LARGE, naming the limit). */
function withinSizeLimit(relPath: string, raw: string): string {
  const bytes = Buffer.byteLength(raw)
  if (bytes > MAX_MEMORY_BYTES)
    throw new MemdirError(
      'TOO_LARGE',
      `${relPath} would be ${formatBytes(bytes)}; a memory may be at most ${formatBytes(MAX_MEMORY_BYTES)}`,
      { bytes, limit: MAX_MEMORY_BYTES },
    )
  return raw
}

/**
 * A memory's fields are fit to write. `before` is the frontmatter the file has now: a title or
 * description someone else wrote (a 300-character name, say) is written back as it was when an
 * update leaves it unchanged; only a new value must pass the rule.
 */
function validateFields(fields: MemoryFields, before?: Record<string, unknown>): void {
  if (!fields.name.trim()) throw new MemdirError('INVALID_INPUT', 'a memory needs a name')
  if (!fields.description.trim()) {
    throw new MemdirError(
      'INVALID_INPUT',
      'a memory needs a one-line description (it decides future relevance)',
    )
  }
  checkMemoryTitle(fields, before)
}

/**
 * Reads a memory, following symlinks as Claude Code does (a memory it recalls can always be
 * opened); one a link keeps outside the memory dir carries `linkedTo` and is never written.
 */
export async function readMemory(memoryDir: string, relPath: string): Promise<MemoryRecord> {
  if (!relPath.endsWith('.md')) throw new MemdirError('INVALID_PATH', `memory files end in .md: ${relPath}`)
  const { path, linkedTo } = await resolveReadablePath(memoryDir, relPath)
  const raw = await readRegularFile(path, MAX_OPENED_MEMORY_BYTES).catch((e: unknown) => {
    if (isAbsent(e)) throw new MemdirError('NOT_FOUND', `no memory at ${relPath}`)
    if (errnoOf(e) !== 'EFBIG') throw e
    throw new MemdirError(
      'TOO_LARGE',
      `${relPath} is larger than ${formatBytes(MAX_OPENED_MEMORY_BYTES)}, more than a memory holds (at most ${formatBytes(MAX_MEMORY_BYTES)}): Memdir does not open it; move it out of the memory dir, or delete it`,
      { limit: MAX_OPENED_MEMORY_BYTES },
    )
  })
  const st = await stat(path)
  const parsed = parseMemoryFile(raw)
  return {
    relPath,
    path,
    raw,
    hash: sha256Hex(raw),
    mtimeMs: st.mtimeMs,
    ...(linkedTo ? { linkedTo } : {}),
    ...parsed,
  }
}

/**
 * Applies `edit` to a MEMORY.md (or the file a symlink of it leads to in the memory dir), retrying
 * if a writer outside Memdir changed it between read and write.
 */
async function editIndex(
  memoryDir: string,
  indexRel: string,
  edit: (content: string) => string,
  record: RecordedWrite = unrecordedWrite,
): Promise<void> {
  const indexPath = await writablePath(memoryDir, indexRel, 'Add the pointer there yourself.')
  await checkIndexWritable(indexPath, indexRel)
  for (let attempt = 0; ; attempt++) {
    try {
      // Read, edit and write under the index's lock: another Memdir writer's edit in between
      // (two memories saved at once) would otherwise be lost with the older read.
      await record(indexPath, () =>
        withFileLock(indexPath, async () => {
          const current = await readIfExists(indexPath)
          const next = edit(current ?? '')
          if (next === (current ?? '')) return { before: current, after: current }
          await mkdir(dirname(indexPath), { recursive: true })
          if (current === null) await writeFileIfUnchanged(indexPath, next, null)
          else await replaceFileIfUnchanged(indexPath, next, sha256Hex(current))
          return { before: current, after: next }
        }),
      )
      return
    } catch (e) {
      if (e instanceof ConflictError && attempt < 2) continue
      throw e
    }
  }
}

/** How a write reaches history, and whether the user accepted a secret warning. */
export interface WriteOptions {
  record?: RecordedWrite
  acceptPrivateSecret?: boolean
  /** The stamps the user's client puts on every memory it writes (a kept `modified` is bumped anyway). */
  stamps?: readonly MemoryStamp[]
}

/**
 * Adds the memory's MEMORY.md line, or regenerates it from `fields` when Memdir wrote it from
 * `previous` (the name and description the file had); a line someone else wrote stays theirs.
 */
export async function upsertPointer(
  memoryDir: string,
  relPath: string,
  fields: PointerFields,
  record?: RecordedWrite,
  previous?: PointerFields,
) {
  await upsertPointers(memoryDir, [{ relPath, fields, previous }], record)
}

/**
 * READ_ONLY, before anything is written, when the index at `indexRel` is one its owner made
 * read-only and `edit` would change it: an action that needs its pointer edited is refused whole,
 * never done halfway (a memory saved, its pointer not). One that leaves the index alone goes on.
 */
async function checkIndexEditable(
  memoryDir: string,
  indexRel: string,
  edit: (content: string) => string,
): Promise<void> {
  const path = join(memoryDir, indexRel)
  const mode = await existingMode(path)
  if (mode === undefined || mode & 0o200) return
  const current = (await readIndexText(path)) ?? ''
  if (edit(current) !== current) refuseReadOnly(path, mode)
}

/** The edit that adds or regenerates a memory's line (upsertPointer's). */
const upsertEdit =
  (relPath: string, fields: PointerFields, previous?: PointerFields) =>
  (c: string): string =>
    upsertIndexLines(c, [{ fields, previous, pointer: indexLocationFor(relPath).pointer }])

/** upsertPointer for many memories of one index (MEMORY.md or team/MEMORY.md): one edit of it. */
export async function upsertPointers(
  memoryDir: string,
  upserts: readonly (Omit<PointerUpsert, 'pointer'> & { relPath: string })[],
  record?: RecordedWrite,
): Promise<void> {
  const indexRel = oneIndexOf(upserts.map((u) => u.relPath))
  if (indexRel === undefined) return
  const withPointers = upserts.map((u) => ({ ...u, pointer: indexLocationFor(u.relPath).pointer }))
  await editIndex(memoryDir, indexRel, (c) => upsertIndexLines(c, withPointers), record)
}

/** removePointer for many memories of one index: one edit of it. */
export async function removePointers(
  memoryDir: string,
  relPaths: readonly string[],
  record?: RecordedWrite,
): Promise<void> {
  const indexRel = oneIndexOf(relPaths)
  if (indexRel === undefined) return
  const pointers = relPaths.map((r) => indexLocationFor(r).pointer)
  await editIndexIfAFile(memoryDir, indexRel, (c) => removeIndexLines(c, pointers), record)
}

/**
 * editIndex for an edit that takes pointers out: an index that is not a file (a directory named
 * MEMORY.md) holds no pointer, and is left alone.
 */
async function editIndexIfAFile(
  memoryDir: string,
  indexRel: string,
  edit: (content: string) => string,
  record?: RecordedWrite,
): Promise<void> {
  if (await indexNotAFile(join(memoryDir, indexRel))) return
  await editIndex(memoryDir, indexRel, edit, record)
}

/** The index all of `relPaths` are listed in (undefined for none); throws when they span two. */
function oneIndexOf(relPaths: readonly string[]): string | undefined {
  const indexes = new Set(relPaths.map((r) => indexLocationFor(r).indexRel))
  if (indexes.size > 1) throw new Error(`pointers of one index expected, got ${[...indexes].join(' and ')}`)
  return [...indexes][0]
}

/** The name and description a file had, as its MEMORY.md line was generated from (none: no file). */
function pointerFieldsOf(parsed: ParsedMemory | undefined): PointerFields | undefined {
  return parsed ? { name: parsed.name ?? '', description: parsed.description ?? '' } : undefined
}

export async function removePointer(
  memoryDir: string,
  relPath: string,
  record?: RecordedWrite,
): Promise<void> {
  await removePointers(memoryDir, [relPath], record)
}

/** Step 1 writes the topic file (never over an existing one); step 2 adds its MEMORY.md pointer. */
export async function createMemory(
  memoryDir: string,
  fields: MemoryFields & { relPath?: string; format?: MemoryFormat } & WriteOptions,
): Promise<MemoryRecord> {
  validateFields(fields)
  const relPath = fields.relPath ?? `${memoryFileSlug(fields.name)}.md`
  const path = await resolveNewMemoryPath(memoryDir, relPath)
  const raw = withinSizeLimit(
    relPath,
    stampMemoryText(serializeMemoryFile(fields, {}, fields.format), null, { stamps: fields.stamps ?? [] }),
  )
  await guardMemoryWrite(relPath, raw, fields)
  // Step 2 could not be done: refuse before step 1, so no memory is left without its pointer.
  const { indexRel } = indexLocationFor(relPath)
  await checkIndexWritable(join(memoryDir, indexRel), indexRel)
  await checkIndexEditable(memoryDir, indexRel, upsertEdit(relPath, fields))
  const record = fields.record ?? unrecordedWrite
  try {
    await record(path, async () => {
      await writeFileIfUnchanged(path, raw, null)
      return { before: null, after: raw }
    })
  } catch (e) {
    if (e instanceof ConflictError) throw new MemdirError('EXISTS', `a memory already exists at ${relPath}`)
    throw e
  }
  await upsertPointer(memoryDir, relPath, fields, record)
  return readMemory(memoryDir, relPath)
}

/**
 * Saves only if the file still hashes to `expectedHash`; otherwise ConflictError with both versions.
 * The file keeps the frontmatter format it has; one without a type gets `format`.
 */
export async function updateMemory(
  memoryDir: string,
  relPath: string,
  fields: MemoryFields,
  expectedHash: string,
  format: MemoryFormat = 'flat',
  opts: WriteOptions = {},
): Promise<MemoryRecord> {
  const path = await resolveMemoryPath(memoryDir, relPath)
  // Before the file is written: an update that then failed at its pointer was saved but reported failed.
  checkPointerTarget(indexLocationFor(relPath).pointer)
  const existing = await readIfExists(path)
  const parsed = existing === null ? undefined : parseMemoryFile(existing)
  validateFields(fields, parsed?.data)
  const raw = withinSizeLimit(
    relPath,
    stampedUnlessUnchanged(rewriteMemoryFile(existing, parsed, fields, format), existing, {
      stamps: opts.stamps ?? [],
    }),
  )
  await guardMemoryWrite(relPath, raw, opts)
  const { indexRel } = indexLocationFor(relPath)
  await checkIndexEditable(memoryDir, indexRel, upsertEdit(relPath, fields, pointerFieldsOf(parsed)))
  const record = opts.record ?? unrecordedWrite
  await record(path, async () => {
    const before = await readIfExists(path)
    await writeFileIfUnchanged(path, raw, expectedHash)
    return { before, after: raw }
  })
  await upsertPointer(memoryDir, relPath, fields, record, pointerFieldsOf(parsed))
  return readMemory(memoryDir, relPath)
}

/** Moves a memory without overwriting a file at the target, and moves its pointer with it. */
export async function renameMemory(
  memoryDir: string,
  fromRel: string,
  toRel: string,
  opts: WriteOptions = {},
): Promise<MemoryRecord> {
  const record = opts.record ?? unrecordedWrite
  await resolveMemoryPath(memoryDir, fromRel) // a memory a symlink keeps outside stays where it is
  const from = await readMemory(memoryDir, fromRel)
  const toPath = await resolveNewMemoryPath(memoryDir, toRel, fromRel)
  // Only the link target changes: the line (whoever wrote it) stays, where it was.
  const fields = { name: from.name ?? toRel, description: from.description ?? '' }
  const fromIndex = indexLocationFor(fromRel)
  const toIndex = indexLocationFor(toRel)
  const retargetInPlace = (c: string) => {
    if (retargetedLine(c, fromIndex.pointer, toIndex.pointer) === undefined)
      return upsertIndexLine(c, toIndex.pointer, fields)
    const cleared = removeIndexLine(c, toIndex.pointer)
    return (
      retargetedIndex(cleared, fromIndex.pointer, toIndex.pointer) ??
      upsertIndexLine(cleared, toIndex.pointer, fields)
    )
  }
  // Into team/: the user's other links to it in MEMORY.md follow it there. Out of team/ they cannot
  // (no link in team/MEMORY.md leads above team/), so they go as a delete's would.
  const leaveIndex = (c: string) =>
    fromIndex.indexRel === ENTRYPOINT_NAME
      ? movedOutOfIndex(c, fromIndex.pointer, toRel)
      : removeIndexLines(c, [fromIndex.pointer])
  // A read-only index the move would change refuses it before the file moves.
  if (fromIndex.indexRel === toIndex.indexRel)
    await checkIndexEditable(memoryDir, toIndex.indexRel, retargetInPlace)
  else {
    await checkIndexEditable(memoryDir, fromIndex.indexRel, leaveIndex)
    await checkIndexEditable(memoryDir, toIndex.indexRel, (c) => upsertIndexLine(c, toIndex.pointer, fields))
  }
  // Moving into team/ shares the file: the firewall applies (a private file may hold a secret by
  // choice); a new name in team/ is shared too, whatever the file held before.
  if (isTeamPath(toRel)) await guardMemoryWrite(toRel, isTeamPath(fromRel) ? '' : from.raw)
  // A private memory's new name goes into MEMORY.md, which every session sends the model: a
  // credential in it is asked about, as one in a new memory's name or text is.
  else await guardMemoryWrite(toRel, '', { acceptPrivateSecret: opts.acceptPrivateSecret })
  await mkdir(dirname(toPath), { recursive: true })
  // Under the file's lock, as a save takes it: a rename beside another rename or a save moved the
  // file twice (two copies), or moved the old text while the save re-created the old name.
  await withFileLock(from.path, async () => {
    const read = await readIfExists(from.path)
    if (read === null) throw new MemdirError('NOT_FOUND', `no memory at ${fromRel}`)
    let moving: string = read
    const relinked = await relativeLinkMoved(from.path, toPath)
    /** The old name is gone with the move itself (a change of case where case is not told apart). */
    let oldNameGone = false
    await record(toPath, async () => {
      try {
        if (relinked !== undefined) await symlink(relinked, toPath)
        else await link(from.path, toPath)
      } catch (e) {
        if (errnoOf(e) === 'EEXIST') {
          // The new name leads to this very file: a change of case on macOS or Windows, where
          // `Deploy.md` finds `deploy.md`, or a hard link of it. Renamed in place: nothing is lost.
          if (!(await sameFile(from.path, toPath)))
            throw new MemdirError('EXISTS', `a memory already exists at ${toRel}`)
          await rename(from.path, toPath)
          oldNameGone = !(await listedIn(from.path))
          return { before: null, after: moving }
        }
        // Filesystems without hard links: fall back to a checked rename.
        if ((await readIfExists(toPath)) !== null)
          throw new MemdirError('EXISTS', `a memory already exists at ${toRel}`)
        await rename(from.path, toPath)
        return { before: null, after: moving }
      }
      // Another program may have saved over the old name (a new file) since it was read: its text
      // stays there, and nothing moves.
      if (!(await stillLinked(from.path, toPath, relinked))) {
        await unlink(toPath)
        throw new ConflictError(from.path, await readIfExists(from.path), moving)
      }
      // What was linked is what is there now (another program may have saved it since the read).
      moving = (await readIfExists(toPath)) ?? moving
      return { before: null, after: moving }
    })
    await record(from.path, async () => {
      if (!oldNameGone)
        await unlink(from.path).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'ENOENT') throw e
        })
      return { before: moving, after: null }
    })
  })
  if (fromIndex.indexRel === toIndex.indexRel) {
    await editIndex(memoryDir, toIndex.indexRel, retargetInPlace, record)
  } else {
    const oldIndex = (await readIfExists(join(memoryDir, fromIndex.indexRel))) ?? ''
    const moved = retargetedLine(oldIndex, fromIndex.pointer, toIndex.pointer)
    await editIndexIfAFile(memoryDir, fromIndex.indexRel, leaveIndex, record)
    await editIndex(
      memoryDir,
      toIndex.indexRel,
      (c) =>
        moved === undefined
          ? upsertIndexLine(c, toIndex.pointer, fields)
          : replaceIndexLine(c, toIndex.pointer, moved),
      record,
    )
  }
  return readMemory(memoryDir, toRel)
}

/** Whether two names lead to one file (the same entry where case is not told apart, or hard links). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([lstat(a).catch(() => undefined), lstat(b).catch(() => undefined)])
  return x !== undefined && y !== undefined && x.ino === y.ino && x.dev === y.dev
}

/** Whether a name is listed, spelled exactly so, in its folder. */
async function listedIn(path: string): Promise<boolean> {
  return (await readdir(dirname(path))).includes(basename(path))
}

/** Whether the new name still reaches the file at the old name (a hard link, or the same link target). */
async function stillLinked(fromPath: string, toPath: string, relinked: string | undefined): Promise<boolean> {
  if (relinked !== undefined) {
    const target = await readlink(fromPath).catch(() => undefined)
    return target !== undefined && resolve(dirname(fromPath), target) === resolve(dirname(toPath), relinked)
  }
  return sameFile(fromPath, toPath)
}

/**
 * A symlink whose target is relative, moving to another folder: the target that still leads to the
 * same file from there (a hard link of the link itself would dangle). Undefined for anything else.
 */
async function relativeLinkMoved(fromPath: string, toPath: string): Promise<string | undefined> {
  if (dirname(fromPath) === dirname(toPath) || !(await lstat(fromPath)).isSymbolicLink()) return undefined
  const target = await readlink(fromPath)
  if (isAbsolute(target)) return undefined
  return relative(dirname(toPath), resolve(dirname(fromPath), target))
}

/** Deletes a memory (checked against `expectedHash` when given) and drops its pointer line. */
export async function deleteMemory(
  memoryDir: string,
  relPath: string,
  expectedHash?: string,
  opts: WriteOptions = {},
): Promise<void> {
  const record = opts.record ?? unrecordedWrite
  const path = await resolveMemoryPath(memoryDir, relPath)
  const { indexRel, pointer } = indexLocationFor(relPath)
  await checkIndexEditable(memoryDir, indexRel, (c) => removeIndexLines(c, [pointer]))
  // Checked and removed under the file's lock: a save another writer makes meanwhile is not lost.
  await record(path, () =>
    withFileLock(path, async () => {
      const current = await readIfExists(path)
      if (current === null) throw new MemdirError('NOT_FOUND', `no memory at ${relPath}`)
      if (expectedHash !== undefined && sha256Hex(current) !== expectedHash)
        throw new ConflictError(path, current, '')
      await unlink(path)
      return { before: current, after: null }
    }),
  )
  await removePointer(memoryDir, relPath, record)
}

/** One file a memory change would write (null: no file / delete), relative to the memory dir. */
export interface PlannedFile {
  path: string
  before: string | null
  after: string | null
}

async function plannedIndex(
  memoryDir: string,
  relPath: string,
  edit: (content: string, pointer: string) => string,
): Promise<PlannedFile[]> {
  const { indexRel, pointer } = indexLocationFor(relPath)
  const before = await readIfExists(join(memoryDir, indexRel))
  const after = edit(before ?? '', pointer)
  return after === (before ?? '') ? [] : [{ path: indexRel, before, after }]
}

/**
 * What a create (no `expectedHash`) or update would write, checked exactly as the write itself
 * is — fields, path, conflict, secret firewall — without touching disk (review mode proposes it).
 */
export async function planMemoryWrite(
  memoryDir: string,
  relPath: string,
  fields: MemoryFields,
  expectedHash: string | undefined,
  format: MemoryFormat,
  stamps: readonly MemoryStamp[] = [],
): Promise<PlannedFile[]> {
  const path =
    expectedHash === undefined
      ? await resolveNewMemoryPath(memoryDir, relPath)
      : await resolveMemoryPath(memoryDir, relPath)
  const existing = await readIfExists(path)
  if (expectedHash === undefined && existing !== null)
    throw new MemdirError('EXISTS', `a memory already exists at ${relPath}`)
  if (expectedHash !== undefined && (existing === null || sha256Hex(existing) !== expectedHash))
    throw new ConflictError(path, existing, '')
  const parsed = existing === null ? undefined : parseMemoryFile(existing)
  validateFields(fields, parsed?.data)
  const raw = withinSizeLimit(
    relPath,
    stampedUnlessUnchanged(rewriteMemoryFile(existing, parsed, fields, format), existing, { stamps }),
  )
  await guardMemoryWrite(relPath, raw)
  return [
    { path: relPath, before: existing, after: raw },
    ...(await plannedIndex(memoryDir, relPath, (c, pointer) =>
      upsertIndexLine(c, pointer, fields, pointerFieldsOf(parsed)),
    )),
  ]
}

/** What deleting a memory would write: the file gone and its pointer line dropped. */
export async function planMemoryDelete(
  memoryDir: string,
  relPath: string,
  expectedHash: string,
): Promise<PlannedFile[]> {
  const path = await resolveMemoryPath(memoryDir, relPath)
  const current = await readIfExists(path)
  if (current === null) throw new MemdirError('NOT_FOUND', `no memory at ${relPath}`)
  if (sha256Hex(current) !== expectedHash) throw new ConflictError(path, current, '')
  return [
    { path: relPath, before: current, after: null },
    ...(await plannedIndex(memoryDir, relPath, (c, pointer) => removeIndexLine(c, pointer))),
  ]
}
