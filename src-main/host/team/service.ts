import type { ProjectContext } from '../../core/paths/context.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import { TeamState, type TeamStateDeps } from './team-state.js'

/** Team sync of one workspace: its own server, repo and token, the scheduler and the status it shows. */
export function createTeamService(ctx: ProjectContext, deps: Omit<TeamStateDeps, 'ctx'>): TeamState {
  return new TeamState({ ctx, ...deps })
}

export function teamHandlers(team: () => TeamState): FeatureHandlers<'team/status' | 'team/syncNow'> {
  return {
    'team/status': async () => team().status(),
    'team/syncNow': () => team().syncNow(),
  }
}
