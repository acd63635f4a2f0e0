import type { ProjectContext } from '../../core/paths/context.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import { applyHookChange, integrationsView, planHookChange } from './integrations.js'

/** Claude Code hooks and MCP snippets of the open project: the view, the planned diff, the write. */
export function integrationsHandlers(
  ctx: () => ProjectContext,
): FeatureHandlers<'integrations/get' | 'integrations/planHooks' | 'integrations/applyHooks'> {
  return {
    'integrations/get': () => integrationsView(ctx()),
    'integrations/planHooks': ({ scope, action }) => planHookChange(ctx(), scope, action),
    'integrations/applyHooks': ({ scope, action, beforeHash }) =>
      applyHookChange(ctx(), scope, action, beforeHash),
  }
}
