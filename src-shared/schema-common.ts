import * as v from 'valibot'

/**
 * `input.type: Invalid type: Expected ("user" | …)` — the path of each issue, then its message.
 * Schemas are valibot's: they are plain objects, built and checked in microseconds, which counts
 * in `memdir hook prompt` (before every prompt) and every CLI start. Only the MCP tool schemas
 * (mcp-tools.ts) are zod's, because the MCP SDK takes zod.
 */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((i) => {
      const path = i.path?.map((p) => String(p.key)) ?? []
      return `${path.length ? path.join('.') : '(arguments)'}: ${i.message}`
    })
    .join('; ')
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string }

/** Runs input through a schema; a failure says which fields are wrong. */
export function check<S extends v.GenericSchema>(schema: S, input: unknown): Checked<v.InferOutput<S>> {
  const r = v.safeParse(schema, input)
  return r.success ? { ok: true, value: r.output } : { ok: false, message: describeIssues(r.issues) }
}

// valibot's object and record schemas take an array for an object (a JSON `[]` passes as `{}`).
// Every object at a boundary goes through these instead, which refuse one.
const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)
const anObject = v.custom<Record<string, unknown>>(isPlainObject, (i) =>
  Array.isArray(i.input)
    ? 'Invalid type: Expected an object but received an array'
    : 'Invalid type: Expected an object',
)

/** Known keys only; an unknown key is an error. */
export const strictObject = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(anObject, v.strictObject(entries))
/** Known keys checked, unknown ones kept. */
export const looseObject = <E extends v.ObjectEntries>(entries: E) => v.pipe(anObject, v.looseObject(entries))
/** Known keys checked, unknown ones dropped. */
export const object = <E extends v.ObjectEntries>(entries: E) => v.pipe(anObject, v.object(entries))
/** String keys, each value checked. */
export const record = <S extends v.GenericSchema>(value: S) => v.pipe(anObject, v.record(v.string(), value))
