import { messageOf } from '../../../src-shared/errors.js'
import type { ProjectContext } from '../../core/paths/context.js'
import type { ActivityInput } from '../activity/activity-store.js'
import { migrateLegacyTeamSettings, type ProjectCandidate } from '../settings/project-values.js'
import {
  migratePlainSecrets,
  readStoredSecrets,
  SECRET_LABEL,
  type HeldSecrets,
  type SecretCipher,
} from '../settings/secrets.js'

/**
 * Start-up of the settings: plain secrets an older Memdir left in the settings file move to the
 * keychain (or a 0600 file), global team values move to their project, and the stored secrets are
 * read. Problems become notices for the activity feed, never a failed start.
 */
export async function prepareSettings(
  base: ProjectContext,
  cipher: SecretCipher | undefined,
  candidates: () => Promise<ProjectCandidate[]>,
): Promise<{ secrets: HeldSecrets; notices: ActivityInput[] }> {
  const notices: ActivityInput[] = []
  const problem = (title: string, e: unknown, advice: string) =>
    notices.push({
      kind: 'settings',
      level: 'error',
      title,
      detail: `${messageOf(e)} — ${advice}`,
      files: [],
    })
  const moved = cipher
    ? await migratePlainSecrets(base, cipher).catch((e: unknown) => {
        problem('Plain secrets could not be moved out of the settings file', e, 'they stay there for now.')
        return []
      })
    : []
  if (moved.length)
    notices.push({
      kind: 'settings',
      level: 'info',
      title: `Moved the ${moved.map((n) => SECRET_LABEL[n]).join(' and ')} to ${cipher?.available() ? 'the OS keychain' : 'a file only you can read'}`,
      detail: 'They were in the settings file as plain text; the file now only notes where they are.',
      files: [],
    })
  await migrateLegacyTeamSettings(base, await candidates(), cipher).catch((e: unknown) =>
    problem(
      'The team settings could not be moved to their project',
      e,
      'enter them again on the Team sync page.',
    ),
  )
  try {
    const stored = readStoredSecrets(base, cipher)
    return { secrets: { ...stored, teamTokens: { ...stored.teamTokens } }, notices }
  } catch (e) {
    problem('Cannot read the stored team tokens or API key', e, 'enter them again in Settings.')
    return { secrets: { teamTokens: {} }, notices }
  }
}
