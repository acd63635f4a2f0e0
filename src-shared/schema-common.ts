import type * as zc from 'zod/v4/core'

/**
 * `input.type: Invalid option: expected one of …` — the path of each issue, then its message.
 * Takes any zod error (classic or `zod/mini`), so small entries need not load the RPC contract.
 */
export function describeIssues(error: { issues: readonly zc.$ZodIssue[] }): string {
  return error.issues
    .slice(0, 3)
    .map((i) => {
      // An unknown key is named as the field it is, not as its parent.
      const path = i.code === 'unrecognized_keys' ? [...i.path, i.keys.join(', ')] : i.path
      return `${path.length ? path.join('.') : '(arguments)'}: ${i.message}`
    })
    .join('; ')
}
