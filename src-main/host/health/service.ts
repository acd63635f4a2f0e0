import type { ProjectContext } from '../../core/paths/context.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import { WorkspaceHealth, type WorkspaceHealthDeps } from './workspace-health.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'

/** Health of one workspace: findings kept current by the watcher, and their fixes. */
export function createHealthService(ctx: ProjectContext, deps: Omit<WorkspaceHealthDeps, 'projectRoot'>) {
  return new WorkspaceHealth({ projectRoot: ctx.projectRoot, scanner: scannerFor(ctx), ...deps })
}

export function healthHandlers(
  health: () => WorkspaceHealth,
): FeatureHandlers<'health/get' | 'health/checkContradictions' | 'health/fixAll' | 'health/fix'> {
  return {
    'health/fixAll': ({ kind, fix }) => health().fixAll(kind, fix),
    'health/get': () => health().report(),
    'health/checkContradictions': () => health().report({ askModel: true }),
    'health/fix': ({ id, fix }) => health().fix(id, fix),
  }
}
