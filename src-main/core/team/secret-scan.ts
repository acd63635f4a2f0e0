/** A detected secret: which rule and where, never the secret itself. */
export interface SecretFinding {
  ruleId: string
  description: string
  line: number
}

interface Rule {
  id: string
  description: string
  pattern: RegExp
  /** Extra check on the captured value (group 1 when present, else the match). */
  accept?: (value: string) => boolean
}

export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>()
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1)
  let h = 0
  for (const n of counts.values()) {
    const p = n / s.length
    h -= p * Math.log2(p)
  }
  return h
}

const RULES: Rule[] = [
  { id: 'anthropic-api-key', description: 'Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  {
    id: 'openai-api-key',
    description: 'OpenAI API key',
    pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/,
  },
  { id: 'aws-access-key-id', description: 'AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  {
    id: 'aws-secret-access-key',
    description: 'AWS secret access key',
    pattern: /aws_secret_access_key\s*[=:]\s*["']?([A-Za-z0-9/+=]{40})/i,
  },
  {
    id: 'github-token',
    description: 'GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/,
  },
  { id: 'gitlab-token', description: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { id: 'google-api-key', description: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { id: 'slack-token', description: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { id: 'stripe-secret-key', description: 'Stripe secret key', pattern: /\b[rs]k_live_[0-9A-Za-z]{20,}/ },
  {
    id: 'private-key',
    description: 'private key block',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
  },
  {
    id: 'jwt',
    description: 'JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  },
  {
    id: 'generic-secret-assignment',
    description: 'high-entropy value assigned to a key/token/secret/password',
    pattern:
      /\b[A-Za-z0-9_.-]*(?:api[_-]?key|secret|token|passw(?:or)?d|credential|auth)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?([A-Za-z0-9_\-/+=.]{16,})/i,
    accept: (v) => shannonEntropy(v) >= 3.5 && /\d/.test(v) && /[A-Za-z]/.test(v),
  },
]

/** Scans text for credentials. Returns one finding per rule (first line it matches). */
export function scanForSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = []
  const lines = text.split('\n')
  for (const rule of RULES) {
    for (let i = 0; i < lines.length; i++) {
      const m = rule.pattern.exec(lines[i] as string)
      if (!m) continue
      if (rule.accept && !rule.accept(m[1] ?? m[0])) continue
      findings.push({ ruleId: rule.id, description: rule.description, line: i + 1 })
      break
    }
  }
  return findings
}

export function describeFindings(findings: readonly SecretFinding[]): string {
  return findings.map((f) => `${f.description} (${f.ruleId}) on line ${f.line}`).join('; ')
}
