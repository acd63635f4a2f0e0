import { resolveAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ProjectContext } from '../../core/paths/context.js'
import { getAutoMemoryEnablement, getTeamMemoryEnablement } from '../../core/paths/enablement.js'
import { getTeamMemPath } from '../../core/paths/team-agent-paths.js'
import { type CliIO, printJson } from '../io.js'

export function describeMemoryPath(ctx: ProjectContext) {
  const r = resolveAutoMemPath(ctx)
  const enablement = getAutoMemoryEnablement(ctx)
  const team = getTeamMemoryEnablement(ctx)
  return {
    path: r.path,
    source: r.source,
    enabled: enablement.enabled,
    enabledReason: enablement.reason,
    rejected: r.rejected,
    projectRoot: ctx.projectRoot,
    projectBase: r.projectBase,
    teamDir: getTeamMemPath(ctx),
    teamEnabled: team.enabled,
    teamReason: team.reason,
  }
}

export function pathCommand(ctx: ProjectContext, io: CliIO, json: boolean): number {
  const d = describeMemoryPath(ctx)
  if (json) {
    printJson(io, d)
    return 0
  }
  const out = [d.path, `source: ${d.source}`, `enabled: ${d.enabled ? 'yes' : 'no'} (${d.enabledReason})`]
  for (const rej of d.rejected) {
    out.push(
      `rejected: ${rej.source} value ${JSON.stringify(rej.value)}: ${rej.reason}; fell back to the next rule`,
    )
  }
  out.push(`team: ${d.teamEnabled ? 'on' : 'off'} (${d.teamReason}) ${d.teamDir}`)
  io.stdout(out.join('\n') + '\n')
  return 0
}
