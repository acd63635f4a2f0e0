/**
 * The team-memory secret firewall. Rules come from secretlint's recommended preset (run in
 * process) and, for the credential formats it does not cover, Memdir's own rules (the data in secret-rules.json) — together
 * at least every format Claude Code's own team-memory scanner knows, plus AWS secret access keys
 * and JWTs. secretlint's Slack rule also flags placeholders (`xoxb-your-token-here`): Slack uses
 * Memdir's stricter rules instead. A finding names the rule and the line, never the secret.
 */

import OWN_RULE_DATA from './secret-rules.json'

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

interface RuleData {
  id: string
  description: string
  pattern: string
  flags?: string
  bounded?: boolean
}

/** Memdir's own rules (data in secret-rules.json), matched between non-token characters unless unbounded. */
const OWN_RULES: Rule[] = OWN_RULE_DATA.rules.map((r: RuleData) => ({
  id: r.id,
  description: r.description,
  pattern: new RegExp(r.bounded === false ? r.pattern : `${B}${r.pattern}${E}`, r.flags ?? ''),
}))

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

/** The `line` of a finding in a memory's name (its path, a team key): it is on no line of the text. */
export const IN_NAME = 0

/**
 * Which of these names (memory paths, team keys) hold a credential, in one scan of them all. A
 * name is shown in every listing, index line and sync report, and a team key is written to every
 * teammate's disk: a credential there leaks as surely as one in the text. Findings have line IN_NAME.
 */
export async function secretsInNames(names: readonly string[]): Promise<Map<string, SecretFinding[]>> {
  const out = new Map<string, SecretFinding[]>()
  if (!names.length) return out
  // One name per line: a line break inside a name (a key no client may write) must not shift the rest.
  const lines = names.map((n) => n.replace(/[\r\n\u2028\u2029]/g, ' '))
  for (const f of await scanForSecrets(lines.join('\n'))) {
    const name = names[f.line - 1]
    if (name === undefined) continue
    const found = out.get(name) ?? []
    if (!found.some((g) => g.ruleId === f.ruleId)) found.push({ ...f, line: IN_NAME })
    out.set(name, found)
  }
  return out
}

/**
 * `name` as a report may show it: each segment that holds a credential cut to its first four
 * characters (a format's prefix, `ghp_`, `AKIA`), its extension kept — `team/ghp_….md`.
 */
export async function redactedName(name: string): Promise<string> {
  const segments = name.split('/')
  const found = await secretsInNames(segments)
  const cut = (s: string) => `${[...s].slice(0, 4).join('')}…${/\.md$/.test(s) ? '.md' : ''}`
  // A credential with a `/` in it is in no one segment: then the whole name is cut.
  if (!found.size) return (await secretsInName(name)).length ? cut(name) : name
  return segments.map((seg) => (found.has(seg) ? cut(seg) : seg)).join('/')
}

/** The credentials one name holds (line IN_NAME); empty when it holds none. */
export async function secretsInName(name: string): Promise<SecretFinding[]> {
  return (await secretsInNames([name])).get(name) ?? []
}

/** `name` as a report about these findings shows it: cut (redactedName) when one is in the name. */
export async function reportedName(name: string, findings: readonly SecretFinding[]): Promise<string> {
  return findings.some((f) => f.line === IN_NAME) ? redactedName(name) : name
}

/** A memory's credentials: those in its name (line IN_NAME) first, then those in its text. */
export async function scanMemoryForSecrets(name: string, text: string): Promise<SecretFinding[]> {
  const [inName, inText] = await Promise.all([secretsInName(name), scanForSecrets(text)])
  return [...inName, ...inText]
}

/** The own rule ids, for the corpus test and the docs. */
export const OWN_SECRET_RULE_IDS = OWN_RULES.map((r) => r.id)

export function describeFindings(findings: readonly SecretFinding[]): string {
  const article = (what: string) => (/^[aeiou]/i.test(what) ? 'an' : 'a')
  return findings
    .map(
      (f) =>
        `${article(f.description)} ${f.description} (${f.ruleId}) ${f.line === IN_NAME ? 'in its name' : `on line ${f.line}`}`,
    )
    .join('; ')
}
