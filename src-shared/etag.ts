/**
 * How the team client and the team server read an entity tag. The server's tags are strong
 * (`"sha256:…"`), but what reaches either side may have passed a proxy: nginx with gzip on turns
 * every strong tag of a compressed answer into a weak one (`W/"sha256:…"`), and a client someone
 * else wrote may drop the quotes. A tag's value is still the server's checksum, so both sides
 * compare values: a push behind such a proxy would otherwise meet 412 on every try.
 */

/** One tag's opaque value: `"x"`, `W/"x"` and a bare `x` all give `x`. */
export function etagValue(tag: string): string {
  const t = tag.trim().replace(/^W\//, '')
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t
}

/** A tag as Memdir sends it: strong and quoted. */
export const strongEtag = (tag: string) => `"${etagValue(tag)}"`

/**
 * Whether an `If-Match` or `If-None-Match` header names `checksum`: `*` names any, else any tag
 * of its comma-separated list does.
 */
export function etagHeaderNames(header: string, checksum: string): boolean {
  if (header.trim() === '*') return true
  return (header.match(/(?:W\/)?"[^"]*"|[^,\s]+/g) ?? []).some((t) => etagValue(t) === checksum)
}
