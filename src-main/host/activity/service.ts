import type { FeatureHandlers } from '../app/router.js'
import type { ActivityLog } from './activity-log.js'

export function activityHandlers(activity: ActivityLog): FeatureHandlers<'activity/list'> {
  return { 'activity/list': async () => activity.list() }
}
