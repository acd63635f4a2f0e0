import type { ProjectContext } from '../../core/paths/context.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import { HistoryReview, type HistoryReviewDeps } from './history-review.js'

/** The history timeline (diffs, restore, undo a run) and the review inbox of one workspace. */
export function createHistoryService(_ctx: ProjectContext, deps: HistoryReviewDeps): HistoryReview {
  return new HistoryReview(deps)
}

export function historyHandlers(
  history: () => HistoryReview,
): FeatureHandlers<
  | 'history/list'
  | 'history/diff'
  | 'history/restore'
  | 'history/undoRun'
  | 'review/list'
  | 'review/approve'
  | 'review/reject'
> {
  return {
    'history/list': ({ path, limit }) => history().list(path, limit),
    'history/diff': ({ id }) => history().diff(id),
    'history/restore': ({ path, id }) => history().restore(path, id),
    'history/undoRun': ({ runId }) => history().undoRun(runId),
    'review/list': () => history().proposals(),
    'review/approve': ({ id, edits }) => history().approve(id, edits),
    'review/reject': ({ id }) => history().reject(id),
  }
}
