import { describe, expect, it } from 'vitest'
import { credentialProblem } from './credentials.js'

describe('credentialProblem', () => {
  it('takes what a header can carry and names the first character it cannot, never the value', () => {
    expect(credentialProblem('team token', 'tmt_AbC-09._~+/=')).toBeUndefined()
    expect(credentialProblem('API key', 'sk-ant-api03-x')).toBeUndefined()
    const cases: [string, string][] = [
      ['tmt_secret\nrest', 'a line break (character 11 of 15)'],
      ['tmt_secret\r', 'a line break (character 11 of 11)'],
      ['tmt_se cret', 'a space (character 7 of 11)'],
      ['tmt_secret€', 'a character beyond ASCII (character 11 of 11)'],
      ['tmt_\tsecret', 'a tab (character 5 of 11)'],
      ['tmt_\u0000secret', 'a control character (character 5 of 11)'],
    ]
    for (const [value, why] of cases) {
      const p = credentialProblem('team token', value)!
      expect(p).toBe(`the team token holds ${why}, which no team token has: copy it again`)
      expect(p).not.toContain('secret')
    }
    expect(credentialProblem('API key', '')).toBe('the API key is empty')
  })
})
