import type { ProjectContext } from '../../core/paths/context.js'
import type { FeatureHandlers } from '../app/router.js'
import { WorkspaceHealth, type WorkspaceHealthDeps } from './workspace-health.js'

/** Health of one workspace: findings kept current by the watcher, and their fixes. */
export function createHealthService(ctx: ProjectContext, deps: Omit<WorkspaceHealthDeps, 'projectRoot'>) {
  return new WorkspaceHealth({ projectRoot: ctx.projectRoot, ...deps })
}

export function healthHandlers(health: () => WorkspaceHealth): FeatureHandlers<'health/get' | 'health/fix'> {
  return {
    'health/get': () => health().report(),
    'health/fix': ({ id, fix }) => health().fix(id, fix),
  }
}
