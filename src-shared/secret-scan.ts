/**
 * The team-memory secret firewall. Rules come from secretlint's recommended preset (run in
 * process) and, for the credential formats it does not cover, Memdir's own rules below — together
 * at least every format Claude Code's own team-memory scanner knows, plus AWS secret access keys
 * and JWTs. secretlint's Slack rule also flags placeholders (`xoxb-your-token-here`): Slack uses
 * Memdir's stricter rules instead. A finding names the rule and the line, never the secret.
 */

export interface SecretFinding {
  ruleId: string
  description: string
  line: number
}

interface Rule {
  id: string
  description: string
  pattern: RegExp
}

// Token bodies are bounded by a non-token character (or the line's end) on both sides.
const B = '(?<![A-Za-z0-9_-])'
const E = '(?![A-Za-z0-9_-])'
const rule = (id: string, description: string, body: string, flags = ''): Rule => ({
  id,
  description,
  pattern: new RegExp(`${B}${body}${E}`, flags),
})

const OWN_RULES: Rule[] = [
  // AWS's documentation keys end in EXAMPLE: not credentials.
  rule(
    'aws-access-key-id',
    'AWS access key id',
    '(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)(?![A-Z2-7]{9}EXAMPLE)[A-Z2-7]{16}',
  ),
  rule('gcp-api-key', 'Google Cloud API key', 'AIza[0-9A-Za-z_-]{35}'),
  {
    id: 'azure-ad-client-secret',
    description: 'Azure AD client secret',
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/,
  },
  rule('digitalocean-pat', 'DigitalOcean personal access token', 'dop_v1_[a-f0-9]{64}'),
  rule('digitalocean-access-token', 'DigitalOcean OAuth token', 'do[or]_v1_[a-f0-9]{64}'),
  // secretlint matches only full-length keys; a truncated or older-format key is still a key.
  rule('anthropic-api-key', 'Anthropic API key', 'sk-ant-(?:api|oat)\\d\\d-[A-Za-z0-9_-]{20,}'),
  rule('anthropic-admin-api-key', 'Anthropic admin API key', 'sk-ant-admin\\d\\d-[A-Za-z0-9_-]{20,}'),
  rule('huggingface-access-token', 'Hugging Face token', 'hf_[A-Za-z]{34}'),
  rule('gitlab-pat', 'GitLab personal access token', 'glpat-[A-Za-z0-9_-]{20}'),
  rule('gitlab-deploy-token', 'GitLab deploy token', 'gldt-[A-Za-z0-9_-]{20}'),
  rule('slack-bot-token', 'Slack bot token', 'xoxb-\\d{10,13}-\\d{10,13}[A-Za-z0-9-]*'),
  rule('slack-user-token', 'Slack user token', 'xox[pe](?:-\\d{10,13}){3}-[a-zA-Z0-9-]{28,34}'),
  rule('slack-app-token', 'Slack app token', 'xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+', 'i'),
  rule('twilio-api-key', 'Twilio API key', 'SK[0-9a-fA-F]{32}'),
  rule('pypi-upload-token', 'PyPI upload token', 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}'),
  rule('databricks-api-token', 'Databricks token', 'dapi[a-f0-9]{32}(?:-\\d)?'),
  rule(
    'hashicorp-tf-api-token',
    'HashiCorp Terraform token',
    '[a-z0-9]{14}\\.atlasv1\\.[a-z0-9_=-]{60,70}',
    'i',
  ),
  rule('pulumi-api-token', 'Pulumi token', 'pul-[a-f0-9]{40}'),
  rule('postman-api-token', 'Postman API key', 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}', 'i'),
  rule('grafana-api-key', 'Grafana API key', 'eyJrIjoi[A-Za-z0-9]{70,400}={0,2}'),
  rule('grafana-cloud-api-token', 'Grafana Cloud token', 'glc_[A-Za-z0-9+/]{32,400}={0,2}'),
  rule(
    'grafana-service-account-token',
    'Grafana service account token',
    'glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}',
  ),
  rule('sentry-user-token', 'Sentry user token', 'sntryu_[a-f0-9]{64}'),
  rule('sentry-org-token', 'Sentry organization token', 'sntrys_eyJpYXQiO[A-Za-z0-9+/=_-]{10,}'),
  rule('stripe-access-token', 'Stripe key', '(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,99}'),
  {
    id: 'private-key',
    description: 'private key block',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
  },
  rule('jwt', 'JSON Web Token', 'eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}'),
]

/** secretlint's preset, by rule, as the UI names it. */
const SECRETLINT_NAMES: Record<string, string> = {
  aws: 'AWS credential',
  gcp: 'Google Cloud service account key',
  privatekey: 'private key block',
  npm: 'npm token',
  basicauth: 'password in a URL',
  slack: 'Slack token',
  sendgrid: 'SendGrid API key',
  shopify: 'Shopify token',
  github: 'GitHub token',
  openai: 'OpenAI API key',
  anthropic: 'Anthropic API key',
  linear: 'Linear API key',
  '1password': '1Password service account token',
  'database-connection-string': 'database connection string with a password',
}

type Lint = (text: string) => Promise<{ ruleId: string; line: number }[]>
let secretlint: Promise<Lint> | undefined

/** Loaded on first use: the CLI's commands that never scan should not pay for it. */
function loadSecretlint(): Promise<Lint> {
  secretlint ??= (async () => {
    const [{ lintSource }, { rules }, { secretLintProfiler }] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ])
    // secretlint marks every rule run on the global performance timeline and keeps every entry in
    // a profiler it never clears: a long-running app scanning many files leaks memory and gets
    // slower with each scan (each end mark searches all earlier ones). Memdir never profiles it.
    secretLintProfiler.mark = () => {}
    // The preset's rules one by one (a preset's own `disabled` entries are not applied by core 11).
    const config = {
      rules: rules
        .filter((r) => r.meta.id !== '@secretlint/secretlint-rule-slack')
        .map((r) => ({ id: r.meta.id, rule: r })),
    }
    return async (content) => {
      const r = await lintSource({
        source: { filePath: '/memory.md', content, contentType: 'text', ext: '.md' },
        options: { config },
      })
      return r.messages.map((m) => ({ ruleId: m.ruleId, line: m.loc.start.line }))
    }
  })()
  return secretlint
}

function ownFindings(text: string): SecretFinding[] {
  const lines = text.split('\n')
  const out: SecretFinding[] = []
  for (const r of OWN_RULES) {
    const i = lines.findIndex((l) => r.pattern.test(l))
    if (i >= 0) out.push({ ruleId: r.id, description: r.description, line: i + 1 })
  }
  return out
}

/** Scans text for credentials: secretlint's findings (one per match) and Memdir's (first line per rule). */
export async function scanForSecrets(text: string): Promise<SecretFinding[]> {
  const lint = await loadSecretlint()
  const seen = new Set<string>()
  const fromLint = (await lint(text)).flatMap((m) => {
    const short = m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '')
    const key = `${short}\0${m.line}`
    if (seen.has(key)) return []
    seen.add(key)
    return [{ ruleId: `secretlint/${short}`, description: SECRETLINT_NAMES[short] ?? short, line: m.line }]
  })
  // Both sources may name the same credential on a line: report it once.
  const own = ownFindings(text).filter(
    (f) => !fromLint.some((l) => l.line === f.line && l.description === f.description),
  )
  return [...fromLint, ...own].sort((a, b) => a.line - b.line)
}

/** The own rule ids, for the corpus test and the docs. */
export const OWN_SECRET_RULE_IDS = OWN_RULES.map((r) => r.id)

export function describeFindings(findings: readonly SecretFinding[]): string {
  return findings.map((f) => `${f.description} (${f.ruleId}) on line ${f.line}`).join('; ')
}
