import { lstat, readlink, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path'
import { errnoOf, isAbsent, MemdirError, orIfMissing, rethrowUnless } from '../../../src-shared/errors.js'

/** A path that tries to leave the directory it must stay in. */
export class PathTraversalError extends MemdirError {
  constructor(message: string) {
    super('INVALID_PATH', message)
    this.name = 'PathTraversalError'
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** String-level checks on a relative key: no NUL, absolute, backslash, `..`, encoded or NFKC tricks. */
export function checkRelativeKey(key: string): void {
  if (key.length === 0) throw new PathTraversalError('empty path')
  if (key.includes('\0')) throw new PathTraversalError('path contains a NUL byte')
  if (key.includes('\\')) throw new PathTraversalError(`backslash in path: ${key}`)
  if (isAbsolute(key) || /^[A-Za-z]:/.test(key)) throw new PathTraversalError(`absolute path: ${key}`)
  let decoded = key
  try {
    decoded = decodeURIComponent(key)
  } catch (e) {
    rethrowUnless(e instanceof URIError, e)
    throw new PathTraversalError(`malformed URL encoding in path: ${key}`)
  }
  for (const variant of new Set([key, decoded, key.normalize('NFKC'), decoded.normalize('NFKC')])) {
    if (variant.includes('\0') || variant.includes('\\') || isAbsolute(variant)) {
      throw new PathTraversalError(`path escapes its directory: ${key}`)
    }
    if (variant.split('/').some((seg) => seg === '..'))
      throw new PathTraversalError(`path escapes its directory: ${key}`)
  }
}

/** realpath of the deepest ancestor of `p` that exists (symlinks resolved), plus the unresolved tail. */
async function realpathDeepestExisting(p: string): Promise<string> {
  let current = p
  const tail: string[] = []
  for (;;) {
    try {
      const real = await realpath(current)
      return tail.length ? join(real, ...tail.reverse()) : real
    } catch (e) {
      const code = errnoOf(e)
      if (code === 'ENAMETOOLONG')
        throw new MemdirError('PATH_TOO_LONG', `a name in this path is too long for the file system: ${p}`)
      if (code === 'ELOOP') throw new PathTraversalError(`symlink loop at ${current}`)
      if (!isAbsent(e)) throw e
      // ENOENT but the entry itself exists: a dangling symlink, whose target we cannot check.
      const isLink = await lstat(current).then(
        (st) => st.isSymbolicLink(),
        () => false,
      )
      if (isLink) {
        const to = await readlink(current).catch(() => undefined)
        throw new PathTraversalError(
          `dangling symlink at ${current}${to ? ` (it leads to ${to}, which does not exist: create that, or fix the link)` : ''}`,
        )
      }
      const parent = dirname(current)
      if (parent === current) return p
      tail.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)))
      current = parent
    }
  }
}

/** `rel` joined to `root` when it names something strictly below it (no `..` or absolute tricks). */
async function lexicallyInside(root: string, rel: string) {
  checkRelativeKey(rel)
  const absRoot = resolve(root)
  const path = normalize(join(absRoot, rel))
  if (!isInside(path, absRoot) || path === absRoot)
    throw new PathTraversalError(`path escapes its directory: ${rel}`)
  return { absRoot, path, realRoot: await orIfMissing(realpath(absRoot), absRoot) }
}

/**
 * Resolves `rel` under `root` and proves it stays there, also through symlinks: the deepest
 * existing ancestor is realpath'd and must lie inside the real root.
 */
export async function resolveContainedPath(root: string, rel: string): Promise<string> {
  const { absRoot, path: target, realRoot } = await lexicallyInside(root, rel)
  const realTarget = await realpathDeepestExisting(target)
  if (!isInside(realTarget, realRoot)) {
    throw new PathTraversalError(`path resolves outside ${absRoot} through a symlink: ${rel}`)
  }
  return target
}

/**
 * Where a memory may be read: `rel` under `root` with no `..` or absolute tricks — and, as Claude
 * Code's recursive readdir does, through symlinks wherever they lead. `linkedTo` is the real path
 * when a link takes it outside the memory dir: such a memory is read, never written.
 */
export async function resolveReadablePath(
  root: string,
  rel: string,
): Promise<{ path: string; linkedTo?: string }> {
  const { path, realRoot } = await lexicallyInside(root, rel)
  const real = await realpath(path).catch((e: unknown) => {
    rethrowUnless(isAbsent(e), e)
    return undefined
  })
  // Nothing there (yet) is no link. Its own unresolved path was taken for one leading out when the
  // memory dir itself is a link (to a dotfiles repo, say): no MEMORY.md could be started there. A
  // writer's containment check (resolveContainedPath) follows the folders above it.
  if (real === undefined) return { path }
  return isInside(real, realRoot) ? { path } : { path, linkedTo: real }
}
