/** Errors cross every transport as values: the UI shows `message` and may use `details`. */
export interface RpcError {
  code: string
  message: string
  details?: unknown
}

export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: RpcError }

export class RpcFailure extends Error {
  constructor(readonly error: RpcError) {
    super(error.message)
    this.name = 'RpcFailure'
  }
}

/**
 * The codes Memdir's own failures carry, on every surface: the RPC result, the MCP tool result,
 * the team server's reply and the CLI's exit status all name the same code.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'INVALID_NAME'
  | 'PATH_TOO_LONG'
  | 'INVALID_PATH'
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'EXISTS'
  | 'CONFLICT'
  | 'BUSY'
  | 'READ_ONLY'
  | 'TOO_LARGE'
  | 'SECRET_IN_MEMORY'
  | 'SECRET_IN_TEAM_MEMORY'
  | 'DISABLED'
  | 'TEAM_OFF'
  | 'TEAM_SERVER'
  | 'NO_WORKSPACE'
  | 'NOT_STARTED'
  | 'RECALL_FAILED'
  | 'FIX_FAILED'
  | 'SETTINGS_UNREADABLE'
  | 'INTERNAL'

/** The one base class of Memdir's failures: a code, a message a person can act on, optional details. */
export class MemdirError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'MemdirError'
  }
}

/** What an `unknown` caught value says, without casting it. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message
  if (typeof e === 'string') return e
  return String(e)
}

/** The errno code of a Node.js system error (`ENOENT`…), or undefined for anything else. */
export function errnoOf(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || !('code' in e)) return undefined
  const code = e.code
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined
}

/** True for a "no such file" failure: the one a reader may treat as absent. */
export const isMissing = (e: unknown): boolean => errnoOf(e) === 'ENOENT'

/**
 * True when nothing is at the path: missing, or a file stands where the path needs a folder
 * (ENOTDIR: `a.md/b.md` beside the file `a.md`), where no file can be either.
 */
export const isAbsent = (e: unknown): boolean => isMissing(e) || errnoOf(e) === 'ENOTDIR'

/**
 * Any failure as the value every transport carries: Memdir's own with their code and details,
 * the file-system failures a person can act on with theirs, anything else as INTERNAL.
 */
export function toErrorValue(e: unknown): RpcError {
  if (e instanceof MemdirError)
    return { code: e.code, message: e.message, ...(e.details !== undefined ? { details: e.details } : {}) }
  switch (errnoOf(e)) {
    case 'ENOENT':
      return { code: 'NOT_FOUND', message: 'That file no longer exists.' }
    case 'ENAMETOOLONG':
      return { code: 'PATH_TOO_LONG', message: `The path is too long for the file system: ${messageOf(e)}` }
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return { code: 'READ_ONLY', message: `Not allowed to write there: ${messageOf(e)}` }
  }
  return { code: 'INTERNAL', message: messageOf(e) }
}

/** The next step each code asks of an agent (MCP) that cannot see the UI. */
export const AGENT_ADVICE: Partial<Record<string, string>> = {
  EXISTS: 'Read it with memory_read and pass its hash as expected_hash to update it, or pick another path.',
  NOT_FOUND: 'List the memories with memory_list to see what exists.',
  INVALID_NAME: 'Pick a plain relative file name such as "testing-notes.md".',
  PATH_TOO_LONG: 'Pick a shorter file name.',
  SECRET_IN_MEMORY:
    'Leave the secret value out: write where it lives instead (a password manager entry, an environment variable name).',
  SECRET_IN_TEAM_MEMORY:
    'Leave the secret value out: write where it lives instead (a password manager entry, an environment variable name).',
  TOO_LARGE: 'Keep a memory short: one fact per memory, detail in a few lines.',
}

/** The next step for a failure, the field it names considered: a title is not a file name. */
export function agentAdvice(code: string, details?: unknown): string | undefined {
  const field = (details as { field?: unknown } | undefined)?.field
  if (code === 'INVALID_NAME' && (field === 'name' || field === 'description'))
    return 'Write the name as a short title (under 200 characters) and the description as one sentence, both plain text.'
  return AGENT_ADVICE[code]
}

/**
 * The `memdir` exit status for a failure: 2 when the invocation or its input is at fault (fix the
 * command), 1 for everything else.
 */
export function exitCodeFor(code: string): 1 | 2 {
  return code === 'BAD_REQUEST' ||
    code === 'INVALID_NAME' ||
    code === 'PATH_TOO_LONG' ||
    code === 'INVALID_INPUT' ||
    code === 'INVALID_PATH'
    ? 2
    : 1
}

/** A file-system failure (any errno): what a reader that skips unreadable entries expects. */
export const isFsError = (e: unknown): boolean => errnoOf(e) !== undefined

/**
 * For a `catch` that handles one kind of failure: rethrows anything else, so a programming error
 * or an unexpected failure is never taken for the expected one.
 */
export function rethrowUnless(expected: boolean, e: unknown): void {
  if (!expected) throw e
}

/** What a read gives, or `fallback` when it fails as `expected`; any other failure is thrown. */
const orIf =
  (expected: (e: unknown) => boolean) =>
  async <T, F>(read: Promise<T>, fallback: F): Promise<T | F> => {
    try {
      return await read
    } catch (e) {
      rethrowUnless(expected(e), e)
      return fallback
    }
  }

/** What a read gives, or `fallback` when the file is not there; any other failure is thrown. */
export const orIfMissing = orIf(isMissing)

/** `.catch(ignoreMissing)`: a removal of what is already gone is done. */
export const ignoreMissing = (e: unknown): void => rethrowUnless(isMissing(e), e)

/**
 * `.catch(ignoreFsError)`: clean-up after a failure (a temp file, a stale entry) whose own file-system
 * failure must not hide the first one; anything but a file-system failure is still thrown.
 */
export const ignoreFsError = (e: unknown): void => rethrowUnless(isFsError(e), e)

/**
 * What a read gives, or `fallback` when it fails with any file-system error: for a reader that
 * skips what it cannot read by design (a search, a listing); other failures are thrown.
 */
export const orIfUnreadable = orIf(isFsError)
