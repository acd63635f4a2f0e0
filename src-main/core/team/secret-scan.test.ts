import { describe, expect, it } from 'vitest'
import { scanForSecrets } from './secret-scan.js'

describe('scanForSecrets', () => {
  it.each([
    ['anthropic-api-key', `key: sk-ant-api03-${'a1B2'.repeat(20)}`],
    ['openai-api-key', `OPENAI=sk-proj-${'Q7w'.repeat(15)}`],
    ['aws-access-key-id', 'AKIAIOSFODNN7EXAMPLE'],
    ['github-token', `ghp_${'a'.repeat(36)}`],
    ['google-api-key', `AIza${'S'.repeat(35)}`],
    ['slack-token', 'xoxb-1234567890-abcdefghij'],
    ['stripe-secret-key', `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`],
    ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['generic-secret-assignment', 'db_password = "x8Kq2mZ9vLp4Rt7wYb3N"'],
  ])('detects %s and reports the rule, not the value', (rule, text) => {
    const f = scanForSecrets(`intro\n${text}\n`)
    expect(f.map((x) => x.ruleId)).toContain(rule)
    expect(f.find((x) => x.ruleId === rule)!.line).toBe(2)
    expect(JSON.stringify(f)).not.toContain(text.slice(-12))
  })

  it('leaves ordinary memory text alone', () => {
    const text = [
      '---',
      'name: Token refresh',
      'description: The auth token refresh runs every 15 minutes',
      '---',
      'Set token_ttl = 900 in config. The password policy needs 12 characters.',
      'See https://grafana.internal/d/checkout and ticket PAY-1234.',
    ].join('\n')
    expect(scanForSecrets(text)).toEqual([])
  })
})
