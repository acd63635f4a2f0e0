import { getClient } from '../transport/client'
import { createEventRouter } from './event-router'
import { useStore } from './store'

let started: Promise<void> | undefined

/**
 * Starts the app's data: follows the main process's events and loads the first screen. Called
 * before React mounts, so the calls travel while the page renders; later calls get the same promise.
 */
export function startApp(): Promise<void> {
  started ??= (() => {
    getClient().onEvent(createEventRouter(useStore))
    return useStore.getState().loadWorkspaces()
  })()
  return started
}
