import type { FeatureHandlers } from '../../../src-shared/contract.js'
import type { ActivityLog } from './activity-log.js'

export function activityHandlers(activity: ActivityLog): FeatureHandlers<'activity/list'> {
  return { 'activity/list': async () => activity.list() }
}
