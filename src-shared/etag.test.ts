import { describe, expect, it } from 'vitest'
import { etagHeaderNames, etagValue, strongEtag } from './etag.js'

const SUM = 'sha256:' + 'a'.repeat(64)

describe('entity tags, as they reach the team client and server', () => {
  it('reads a strong, a weakened and an unquoted tag as the same value', () => {
    for (const t of [`"${SUM}"`, `W/"${SUM}"`, SUM, ` "${SUM}" `]) expect(etagValue(t)).toBe(SUM)
    expect(strongEtag(`W/"${SUM}"`)).toBe(`"${SUM}"`)
    expect(strongEtag(SUM)).toBe(`"${SUM}"`)
  })

  it('a precondition names a version by any tag of its list, or by *', () => {
    expect(etagHeaderNames(`"x", W/"${SUM}"`, SUM)).toBe(true)
    expect(etagHeaderNames('*', SUM)).toBe(true)
    expect(etagHeaderNames(`"sha256:${'b'.repeat(64)}"`, SUM)).toBe(false)
    expect(etagHeaderNames('', SUM)).toBe(false)
    expect(etagHeaderNames('W/""', SUM)).toBe(false)
  })
})
