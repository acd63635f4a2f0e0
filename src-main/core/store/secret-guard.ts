import { MemdirError } from '../../../src-shared/errors.js'
import { TEAM_DIRNAME } from '../paths/team-agent-paths.js'
import { describeFindings, scanForSecrets, type SecretFinding } from '../../../src-shared/secret-scan.js'

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
        ? `Team memory is shared with everyone on the repository: ${relPath} would contain a ${describeFindings(findings)}. Remove it first.`
        : `${relPath} would contain a ${describeFindings(findings)}. Memories are plain files agents read: save anyway only if that is intended.`,
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
  const findings = await scanForSecrets(content)
  if (!findings.length) return
  throw new SecretInMemoryError(team ? 'SECRET_IN_TEAM_MEMORY' : 'SECRET_IN_MEMORY', relPath, findings)
}
