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

/**
 * Resolves once the first screen can be drawn with its data: the memory list is in (the other
 * first calls fill in their panes as they answer), the load has settled (failed too), or `waitMs`
 * has passed, so a slow answer never holds the window blank.
 */
export function firstScreen(waitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      unsubscribe()
      resolve()
    }
    const timer = setTimeout(done, waitMs)
    const unsubscribe = useStore.subscribe((s) => void (s.loaded && done()))
    if (useStore.getState().loaded) done()
    startApp().then(done, done)
  })
}
