import { count } from '../../../src-shared/words.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { exclusiveSync, pullTeamMemory, pushTeamMemory } from '../../core/team/sync.js'
import { historyForCli } from '../../host/history/recording.js'
import { resolveTeamSetup } from '../../host/team/team-setup.js'
import { type CliIO, printJson, UsageError } from '../io.js'

export async function syncCommand(
  ctx: ProjectContext,
  io: CliIO,
  pull: boolean,
  push: boolean,
  json: boolean,
) {
  if (pull && push) throw new UsageError('--pull and --push exclude each other (give neither for both)')
  const history = await historyForCli(ctx)
  // The same setup as the app: pulls recorded as team-pull, a replaced local version kept as the user's.
  const setup = resolveTeamSetup(ctx, {
    store: history.store,
    memoryDir: history.memoryDir,
    writerFor: (runId) => history.writer({ author: 'team-pull', runId }),
  })
  if (!setup.ok) throw new Error(setup.reason)
  const { pulled, pushed } = await exclusiveSync(setup.deps, async () => ({
    pulled: push ? undefined : await pullTeamMemory(setup.deps),
    pushed: pull ? undefined : await pushTeamMemory(setup.deps),
  }))
  const skipped = [...(pulled?.skipped ?? []), ...(pushed?.skipped ?? [])]
  const conflicts = pulled?.conflicts ?? []
  if (json) {
    printJson(io, {
      repo: setup.repo,
      pulled: pulled?.pulled ?? [],
      removed: pulled?.removed ?? [],
      pushed: pushed?.pushed ?? [],
      pending: pulled?.pending ?? [],
      conflicts,
      skipped,
      retries: pushed?.conflicts ?? 0,
    })
    return 0
  }
  const out = [`${setup.repo} @ ${setup.url}`]
  if (pulled)
    out.push(`pulled ${pulled.pulled.length}${pulled.notFound ? ' (no team memory on the server yet)' : ''}`)
  if (pulled?.removed.length)
    out.push(`removed ${pulled.removed.length} deleted on the server: ${pulled.removed.join(', ')}`)
  if (pulled?.pending.length)
    out.push(`kept ${count(pulled.pending.length, 'local edit')} to push: ${pulled.pending.join(', ')}`)
  for (const c of conflicts)
    out.push(
      `conflict ${c.key}: both sides changed; the server's version is on disk, yours is in history` +
        (c.localVersion ? ` (memdir restore team/${c.key} --to ${c.localVersion})` : ''),
    )
  if (pushed)
    out.push(
      `pushed ${pushed.pushed.length}${pushed.conflicts ? ` (${pushed.conflicts} conflict retries)` : ''}`,
    )
  for (const s of skipped) out.push(`skipped ${s.key}: ${s.reason}`)
  io.stdout(out.join('\n') + '\n')
  return 0
}
