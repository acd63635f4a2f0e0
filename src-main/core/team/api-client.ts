import { strongEtag } from '../../../src-shared/etag.js'
import { teamMemoryEndpoint } from '../../../src-shared/team-server-url.js'
import type * as v from 'valibot'
import { MemdirError, messageOf, rethrowUnless } from '../../../src-shared/errors.js'
import { cutText } from '../../../src-shared/unicode.js'
import { check } from '../../../src-shared/schema-common.js'
import { credentialProblem } from '../../../src-shared/credentials.js'
import { describeWait, retryAfterMs } from './retry-after.js'
import {
  TeamErrorBodySchema,
  TeamMemoryDocumentSchema,
  TeamMemoryPutResultSchema,
  TooManyEntriesSchema,
  type TeamMemoryDocument,
  type TeamMemoryPutResult,
} from '../../../src-shared/team-api.js'

export type FetchLike = typeof fetch

/** An HTTP failure, classified for the retry policy. */
export class TeamApiError extends MemdirError {
  constructor(
    message: string,
    readonly status: number | undefined,
    /** Auth, a refused entry, a full server: retrying will not help. */
    readonly permanent: boolean,
    readonly body?: unknown,
    /** How long the server asked to be left alone (its Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    super('TEAM_SERVER', message, { status, permanent, ...(retryAfterMs !== undefined && { retryAfterMs }) })
    this.name = 'TeamApiError'
  }
}

export interface TeamApiOptions {
  baseUrl: string
  token: string
  fetch?: FetchLike
  /** Counts requests and bytes sent (benchmarks, the UI). */
  onRequest?: (info: { method: string; bytes: number }) => void
  /** How long one request may take, answer body included (default 60 s): a sync always ends. */
  timeoutMs?: number
  /** The largest answer read (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number
}

/** One request's limit: a server that takes the connection and never answers would hold a sync for ever. */
export const TEAM_REQUEST_TIMEOUT_MS = 60_000

/**
 * The largest answer read (a document of every team file): far above what a team's memory holds,
 * and below the string V8 can make of it.
 */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024
/** An error's answer is shown 200 characters long: more is not read. */
const MAX_ERROR_BYTES = 64 * 1024

export type GetResult =
  { status: 200; doc: TeamMemoryDocument; etag: string } | { status: 304 } | { status: 404 }

export type PutResult =
  | { status: 200; result: TeamMemoryPutResult }
  | { status: 412 }
  /** The repo would hold more keys than the server allows. */
  | { status: 413; maxEntries: number; receivedEntries: number; heldEntries?: number }
  /** The request was larger than the server, or a proxy before it, takes (what it said). */
  | { status: 'body_too_large'; said: string }

/**
 * Whether retrying cannot help: every 4xx but 408 (timeout), 409 and 429 (come back later) is
 * the same answer next time — a bad request, auth, a refused entry (422), a full server (413).
 * 5xx and network failures are transient.
 */
export function isPermanentStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429
}

const describeBytes = (n: number) =>
  n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MiB` : `${Math.round(n / 1024)} KiB`

const isTimeout = (e: unknown) => e instanceof DOMException && e.name === 'TimeoutError'

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (e) {
    rethrowUnless(e instanceof SyntaxError, e)
    return undefined
  }
}

/**
 * What answered instead of JSON, for the error: a proxy's or a portal's sign-in page, a web server
 * at the wrong path, an empty answer — the start of its text, without markup.
 */
function notJson(text: string, contentType: string | null): string {
  if (!text.trim()) return 'an empty answer'
  const type = contentType?.split(';')[0]?.trim() || 'text'
  const shown = text
    .replace(/<(script|style)\b[^]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return `${type} that is not JSON${shown ? ` ("${cutText(shown, 80)}")` : ''}`
}

/** A 200 response through its schema: anything else is a permanent error naming the field. */
function parseJson<S extends v.GenericSchema>(
  res: Response,
  text: string,
  schema: S,
  what: string,
): v.InferOutput<S> {
  const json = safeJson(text)
  if (json === undefined)
    throw new TeamApiError(
      `team server answered 200 with ${notJson(text, res.headers.get('content-type'))}, where the team memory API answers JSON: check the server URL (a proxy's sign-in page answers so)`,
      200,
      true,
    )
  const r = check(schema, json)
  if (!r.ok) throw new TeamApiError(`team server sent an unexpected ${what}: ${r.message}`, 200, true)
  return r.value
}

export class TeamApiClient {
  private readonly fetch: FetchLike
  constructor(private readonly opts: TeamApiOptions) {
    this.fetch = opts.fetch ?? globalThis.fetch
  }

  private url(repo: string, view?: string): string {
    const u = teamMemoryEndpoint(this.opts.baseUrl)
    u.searchParams.set('repo', repo)
    if (view) u.searchParams.set('view', view)
    return u.toString()
  }

  private async send(method: string, url: string, headers: Record<string, string>, body?: string) {
    const tokenProblem = credentialProblem('team token', this.opts.token)
    if (tokenProblem) throw new TeamApiError(tokenProblem, undefined, true)
    this.opts.onRequest?.({ method, bytes: body ? Buffer.byteLength(body) : 0 })
    let res: Response
    try {
      res = await this.fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.opts.token}`, accept: 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? TEAM_REQUEST_TIMEOUT_MS),
        // A redirect would carry the push's entries to wherever it points (fetch drops only the
        // token on the way): team memory goes to the server the project names, or nowhere.
        redirect: 'manual',
      })
    } catch (e) {
      if (isTimeout(e)) throw this.timedOut()
      const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : ''
      throw new TeamApiError(`team server unreachable: ${messageOf(e)}${cause}`, undefined, false)
    }
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      await res.body?.cancel()
      const to = res.headers.get('location')
      throw new TeamApiError(
        `team server answered ${res.status}, a redirect${to ? ` to ${to.slice(0, 200)}` : ''}: Memdir sends team memory only to the server URL set for this project, so set it to where the server lives`,
        res.status,
        true,
      )
    }
    return res
  }

  private timedOut(): TeamApiError {
    const s = (this.opts.timeoutMs ?? TEAM_REQUEST_TIMEOUT_MS) / 1000
    return new TeamApiError(`team server did not answer within ${s} s`, undefined, false)
  }

  /**
   * A response's body, read within the request's time limit (a timeout is transient, as a dropped
   * connection is) and up to `maxBytes`: whatever answers at the URL cannot make the app hold an
   * endless answer in memory.
   */
  private async body(
    res: Response,
    maxBytes = this.opts.maxAnswerBytes ?? MAX_ANSWER_BYTES,
  ): Promise<string> {
    const chunks: Uint8Array[] = []
    let size = 0
    try {
      const reader = res.body?.getReader()
      for (let r = await reader?.read(); r && !r.done; r = await reader!.read()) {
        size += r.value.byteLength
        if (size > maxBytes) {
          await reader!.cancel()
          throw new TeamApiError(
            `team server's answer is over ${describeBytes(maxBytes)}: Memdir reads no more of it`,
            res.status,
            true,
          )
        }
        chunks.push(r.value)
      }
    } catch (e) {
      if (e instanceof TeamApiError) throw e
      if (isTimeout(e)) throw this.timedOut()
      throw new TeamApiError(`team server's answer broke off: ${messageOf(e)}`, res.status, false)
    }
    return new TextDecoder().decode(Buffer.concat(chunks, size))
  }

  private async fail(res: Response): Promise<never> {
    const text = await this.body(res, MAX_ERROR_BYTES).catch(() => '')
    const parsed = check(TeamErrorBodySchema, safeJson(text))
    const said = parsed.ok ? parsed.value.error.message : text.slice(0, 200)
    // A success other than the API's own (204, 201): not a team memory server, or not at this URL.
    const success = res.status >= 200 && res.status < 300
    const what =
      res.status === 401
        ? 'not authorized (check the team token)'
        : res.status === 403
          ? 'token not allowed for this repo'
          : success
            ? `where the team memory API answers 200 with JSON: check the server URL${said.trim() ? ` (it said "${cutText(said.trim(), 80)}")` : ''}`
            : said.trim() || 'no reason given'
    const permanent = isPermanentStatus(res.status) || success
    // A busy server (429, 503) may say when to come back: retries wait at least that long.
    const wait = permanent ? undefined : retryAfterMs(res.headers.get('retry-after'))
    throw new TeamApiError(
      `team server answered ${res.status}${success ? ', ' : ': '}${what}${wait ? ` (it asks to wait ${describeWait(wait)})` : ''}`,
      res.status,
      permanent,
      parsed.ok ? parsed.value : text,
      wait,
    )
  }

  async get(repo: string, opts: { view?: 'hashes'; ifNoneMatch?: string } = {}): Promise<GetResult> {
    const res = await this.send(
      'GET',
      this.url(repo, opts.view),
      opts.ifNoneMatch ? { 'if-none-match': opts.ifNoneMatch } : {},
    )
    if (res.status === 304) return { status: 304 }
    if (res.status === 404) {
      await res.body?.cancel()
      return { status: 404 }
    }
    if (res.status !== 200) return this.fail(res)
    const doc = parseJson(res, await this.body(res), TeamMemoryDocumentSchema, 'document')
    // A pull writes the repo its project names, and removes what that repo no longer holds: another
    // repo's document (a proxy or cache keyed wrongly) would replace this project's team memory.
    // Owner and repo names are case-insensitive on the hosts they come from.
    if (doc.repo.toLowerCase() !== repo.toLowerCase())
      throw new TeamApiError(
        `team server answered with the team memory of ${JSON.stringify(doc.repo.slice(0, 200))} when asked for ${repo}: nothing of it is written`,
        200,
        true,
      )
    // Sent back as If-Match: strong, as the server made it (a gzip proxy weakens it on the way).
    return { status: 200, doc, etag: strongEtag(res.headers.get('etag') ?? doc.checksum) }
  }

  async put(repo: string, entries: Record<string, string>, ifMatch?: string): Promise<PutResult> {
    const body = JSON.stringify({ entries })
    const res = await this.send(
      'PUT',
      this.url(repo),
      { 'content-type': 'application/json', ...(ifMatch ? { 'if-match': ifMatch } : {}) },
      body,
    )
    if (res.status === 412) {
      await res.body?.cancel()
      return { status: 412 }
    }
    if (res.status === 413) {
      const text = await this.body(res, MAX_ERROR_BYTES).catch(() => '')
      const tooMany = check(TooManyEntriesSchema, safeJson(text))
      if (!tooMany.ok) {
        const said = check(TeamErrorBodySchema, safeJson(text))
        return { status: 'body_too_large', said: said.ok ? said.value.error.message : text.slice(0, 200) }
      }
      const d = tooMany.value.error.details
      return {
        status: 413,
        maxEntries: d.max_entries,
        receivedEntries: d.received_entries,
        ...(d.held_entries !== undefined ? { heldEntries: d.held_entries } : {}),
      }
    }
    if (res.status !== 200) return this.fail(res)
    return {
      status: 200,
      result: parseJson(res, await this.body(res), TeamMemoryPutResultSchema, 'push result'),
    }
  }
}
