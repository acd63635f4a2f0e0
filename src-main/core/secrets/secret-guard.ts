import { MemdirError } from '../../../src-shared/errors.js'
import { TEAM_DIRNAME } from '../paths/team-agent-paths.js'
import {
  describeFindings,
  reportedName,
  scanForSecrets,
  scanMemoryForSecrets,
  secretsInName,
  type SecretFinding,
} from '../../../src-shared/secret-scan.js'

/** A write refused (team memory) or held for confirmation (private memory) because of a detected secret. */
export class SecretInMemoryError extends MemdirError {
  constructor(
    code: 'SECRET_IN_TEAM_MEMORY' | 'SECRET_IN_MEMORY',
    readonly relPath: string,
    readonly findings: SecretFinding[],
  ) {
    super(
      code,
      code === 'SECRET_IN_TEAM_MEMORY'
        ? `Team memory is shared with everyone on the repository: ${relPath} would contain ${describeFindings(findings)}. Remove it first.`
        : `${relPath} would contain ${describeFindings(findings)}. Memories are plain files agents read: save anyway only if that is intended.`,
      { relPath, findings },
    )
    this.name = 'SecretInMemoryError'
  }
}

export const isTeamPath = (relPath: string) =>
  relPath === TEAM_DIRNAME || relPath.startsWith(`${TEAM_DIRNAME}/`)

/**
 * The one check every write into a memory dir passes (editor, rename into team/, review approval,
 * CLI, MCP; the agents' Write/Edit use the same scan): a detected secret is refused in team memory,
 * and in private memory needs `acceptPrivateSecret`.
 */
export async function guardMemoryWrite(
  relPath: string,
  content: string,
  opts: { acceptPrivateSecret?: boolean } = {},
): Promise<void> {
  const team = isTeamPath(relPath)
  if (!team && opts.acceptPrivateSecret) return
  const findings = await scanMemoryForSecrets(relPath, content)
  if (!findings.length) return
  // A name that is itself the credential is shown by its prefix (the message reaches agents and logs).
  throw new SecretInMemoryError(
    team ? 'SECRET_IN_TEAM_MEMORY' : 'SECRET_IN_MEMORY',
    await reportedName(relPath, findings),
    findings,
  )
}

/** A finding's identity across two versions of a file: its rule and the text of its line. */
const findingKeys = (text: string, findings: readonly SecretFinding[]) => {
  const lines = text.split('\n')
  return findings.map((f) => `${f.ruleId}\0${lines[f.line - 1] ?? ''}`)
}

/** Findings in `after` that `before` did not already have (a secret the user kept stays theirs). */
export async function newSecretFindings(before: string | null, after: string): Promise<SecretFinding[]> {
  const found = await scanForSecrets(after)
  if (!found.length || !before) return found
  const had = new Set(findingKeys(before, await scanForSecrets(before)))
  const keys = findingKeys(after, found)
  return found.filter((_, i) => !had.has(keys[i]!))
}

/**
 * Why an agent (extraction, dream) may not write `after` to a memory file, or undefined: no agent
 * saves a detected secret, in private or team memory alike — there is no one to ask. The reason
 * names the rule and the line, never the value, and says what to write instead.
 */
export async function agentSecretRefusal(
  relPath: string,
  before: string | null,
  after: string,
): Promise<string | undefined> {
  // A new file's name is new too (an existing one's was there before this write).
  const inName = before === null ? await secretsInName(relPath) : []
  const found = [...inName, ...(await newSecretFindings(before, after))]
  if (!found.length) return undefined
  return (
    `Refused: ${await reportedName(relPath, found)} would contain ${describeFindings(found)}. Memories are plain files that ` +
    `every agent and teammate reads, so a secret never goes into one. Leave the value out and write ` +
    `where it lives instead (for example "the deploy token is in 1Password, vault CI" or "read it from $DEPLOY_TOKEN").`
  )
}
