import type { ProjectContext } from '../../core/paths/context.js'
import { pullTeamMemory, pushTeamMemory } from '../../core/team/sync.js'
import { resolveTeamSetup } from '../../host/team.js'
import { type CliIO, printJson, UsageError } from '../io.js'

export async function syncCommand(
  ctx: ProjectContext,
  io: CliIO,
  pull: boolean,
  push: boolean,
  json: boolean,
) {
  if (pull && push) throw new UsageError('--pull and --push exclude each other (give neither for both)')
  const setup = resolveTeamSetup(ctx)
  if (!setup.ok) throw new Error(setup.reason)
  const pulled = push ? undefined : await pullTeamMemory(setup.deps)
  const pushed = pull ? undefined : await pushTeamMemory(setup.deps)
  const skipped = [...(pulled?.skipped ?? []), ...(pushed?.skipped ?? [])]
  if (json) {
    printJson(io, {
      repo: setup.repo,
      pulled: pulled?.pulled ?? [],
      pushed: pushed?.pushed ?? [],
      skipped,
      conflicts: pushed?.conflicts ?? 0,
    })
    return 0
  }
  const out = [`${setup.repo} @ ${setup.url}`]
  if (pulled)
    out.push(`pulled ${pulled.pulled.length}${pulled.notFound ? ' (no team memory on the server yet)' : ''}`)
  if (pushed)
    out.push(
      `pushed ${pushed.pushed.length}${pushed.conflicts ? ` (${pushed.conflicts} conflict retries)` : ''}`,
    )
  for (const s of skipped) out.push(`skipped ${s.key}: ${s.reason}`)
  io.stdout(out.join('\n') + '\n')
  return 0
}
