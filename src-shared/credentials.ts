/**
 * What a credential may hold to be sent: a team token and an API key go in an HTTP header, where
 * only visible ASCII is allowed. One pasted with a line break, a space or a character beyond ASCII
 * made fetch fail with a message that quoted the whole header — the secret itself — which then
 * reached the activity feed, the hook log and the terminal, and was taken for an unreachable
 * server. The reason given here never repeats the value.
 */

const what = (c: string) =>
  c === ' '
    ? 'a space'
    : c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029'
      ? 'a line break'
      : c === '\t'
        ? 'a tab'
        : c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f
          ? 'a control character'
          : 'a character beyond ASCII'

/** Why `value` cannot be sent as the named credential, or undefined when it can. */
export function credentialProblem(
  label: 'team token' | 'API key' | 'auth token',
  value: string,
): string | undefined {
  if (!value) return `the ${label} is empty`
  const bad = /[^\x21-\x7e]/.exec(value)
  return bad
    ? `the ${label} holds ${what(bad[0])} (character ${bad.index + 1} of ${value.length}), which no ${label} has: copy it again`
    : undefined
}
