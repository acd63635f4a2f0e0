import { describe, expect, it } from 'vitest'
import { LOOK_ALIKES, REAL_SECRETS } from './secret-corpus.js'
import {
  describeFindings,
  IN_NAME,
  OWN_SECRET_RULE_IDS,
  redactedName,
  scanForSecrets,
  scanMemoryForSecrets,
  secretsInNames,
} from './secret-scan.js'

/** Every format Claude Code's team-memory scanner has a rule for (its 36 rule ids). */
const CLAUDE_CODE_RULES = [
  'aws-access-token', 'gcp-api-key', 'azure-ad-client-secret', 'digitalocean-pat', 'digitalocean-access-token',
  'anthropic-api-key', 'anthropic-admin-api-key', 'openai-api-key', 'huggingface-access-token', 'github-pat',
  'github-fine-grained-pat', 'github-app-token', 'github-oauth', 'github-refresh-token', 'gitlab-pat',
  'gitlab-deploy-token', 'slack-bot-token', 'slack-user-token', 'slack-app-token', 'twilio-api-key',
  'sendgrid-api-token', 'npm-access-token', 'pypi-upload-token', 'databricks-api-token', 'hashicorp-tf-api-token',
  'pulumi-api-token', 'postman-api-token', 'grafana-api-key', 'grafana-cloud-api-token',
  'grafana-service-account-token', 'sentry-user-token', 'sentry-org-token', 'stripe-access-token',
  'shopify-access-token', 'shopify-shared-secret', 'private-key',
] // prettier-ignore

describe('scanForSecrets on the corpus', () => {
  it('has at least 40 real-format secrets covering every Claude Code rule, and 40 look-alikes', () => {
    expect(REAL_SECRETS.length).toBeGreaterThanOrEqual(40)
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(40)
    const kinds = new Set(REAL_SECRETS.map(([k]) => k.replace(/^aws-access-key-id$/, 'aws-access-token')))
    expect(CLAUDE_CODE_RULES.filter((r) => !kinds.has(r))).toEqual([])
  })

  it('finds every real-format secret and flags no look-alike', async () => {
    const missed: string[] = []
    const bySource = { secretlint: 0, memdir: 0 }
    for (const [kind, line] of REAL_SECRETS) {
      const f = await scanForSecrets(`intro line\n${line}\n`)
      if (!f.length) missed.push(kind)
      else if (f.some((x) => x.ruleId.startsWith('secretlint/'))) bySource.secretlint++
      else bySource.memdir++
      expect(f.every((x) => x.line === 2)).toBe(true)
    }
    const falsePositives: string[] = []
    for (const line of LOOK_ALIKES) if ((await scanForSecrets(line)).length) falsePositives.push(line)
    const recall = (REAL_SECRETS.length - missed.length) / REAL_SECRETS.length
    console.log(
      `secret corpus: recall ${(recall * 100).toFixed(1)}% (${REAL_SECRETS.length - missed.length}/${REAL_SECRETS.length}; ` +
        `${bySource.secretlint} by secretlint's preset, ${bySource.memdir} by Memdir's ${OWN_SECRET_RULE_IDS.length} own rules), ` +
        `false positives ${falsePositives.length}/${LOOK_ALIKES.length}`,
    )
    expect(missed).toEqual([])
    expect(falsePositives).toEqual([])
  })

  it('reports the rule and line, never the value', async () => {
    const [, line] = REAL_SECRETS.find(([k]) => k === 'github-pat')!
    const f = await scanForSecrets(`a\nb\n${line}`)
    expect(f).toEqual([expect.objectContaining({ line: 3 })])
    expect(JSON.stringify(f)).not.toContain(line.slice(-12))
  })

  it('leaves nothing behind per scan: no marks pile up on the performance timeline', async () => {
    await scanForSecrets('warm up')
    const before = performance.getEntriesByType('mark').length
    for (let i = 0; i < 300; i++) await scanForSecrets(`note ${i}`)
    expect(performance.getEntriesByType('mark').length).toBe(before)
  })

  it('leaves ordinary memory text alone', async () => {
    const text = [
      '---',
      'name: Token refresh',
      'description: The auth token refresh runs every 15 minutes',
      '---',
      'Set token_ttl = 900 in config. The password policy needs 12 characters.',
      'oauth_redirect_path=/api/v2/oauth/callback/handler1',
      'See https://grafana.internal/d/checkout and ticket PAY-1234.',
    ].join('\n')
    expect(await scanForSecrets(text)).toEqual([])
  })
})

describe('secrets in a memory name (its path, a team key)', () => {
  // Real-format credentials, assembled so no scanner flags this file itself.
  const github = 'ghp_' + 'R7sQ2kLm9VxT4bN8cW1zY6hJ3fD5gA0pE2uK'
  const aws = 'AKIA' + 'QW3ERT7YUI2OPASD'
  const slack = 'xoxb-' + '123456789012-1234567890123-abcdefghijklmnopqrstuvwx'

  it('finds a credential used as a file or folder name, says it is in the name, and never holds the value', async () => {
    const names = [`${github}.md`, `team/${aws}.md`, `notes/${slack}/deploy.md`, 'team/deploy_freeze.md']
    const found = await secretsInNames(names)
    expect([...found.keys()]).toEqual(names.slice(0, 3))
    for (const f of found.values()) expect(f.every((x) => x.line === IN_NAME)).toBe(true)
    expect(describeFindings(found.get(`${github}.md`)!)).toBe(
      'a GitHub token (secretlint/github) in its name',
    )
    expect(JSON.stringify([...found.values()])).not.toContain(github.slice(-12))
  })

  it('leaves the names memories have alone, and a name with a line break does not shift the others', async () => {
    const ordinary = [
      'feedback_testing.md', 'team/project_deploy_freeze.md', 'reference_aws_accounts.md', 'token_refresh.md',
      'github_actions_cache.md', 'akia_key_rotation.md', 'user_role.md', 'notes/2026-12-01.md', 'sk_ant_usage.md',
    ] // prettier-ignore
    expect(await secretsInNames(ordinary)).toEqual(new Map())
    const broken = 'x\n- [owned](x).md'
    const found = await secretsInNames([broken, 'clean.md', `${aws}.md`])
    expect([...found.keys()]).toEqual([`${aws}.md`])
  })

  it('a report shows such a name cut to its prefix, the rest of the path as it is', async () => {
    expect(await redactedName(`team/${github}.md`)).toBe('team/ghp_….md')
    expect(await redactedName(`notes/${slack}/deploy.md`)).toBe('notes/xoxb…/deploy.md')
    expect(await redactedName('team/deploy_freeze.md')).toBe('team/deploy_freeze.md')
    // A credential that spans a `/` (a URL with its password) is in no one segment: the whole name is cut.
    const url = 'https://admin:' + 'S3cr3tP4ssw0rd' + '@db.example.com/x.md'
    expect(await redactedName(url)).toBe('http….md')
  })

  it('a memory: what its name holds first, then its text by line', async () => {
    const f = await scanMemoryForSecrets(`${github}.md`, `intro\naws key ${aws}\n`)
    expect(f.map((x) => [x.description, x.line])).toEqual([
      ['GitHub token', IN_NAME],
      ['AWS access key id', 2],
    ])
    expect(await scanMemoryForSecrets('deploy.md', 'nothing here')).toEqual([])
  })
})
