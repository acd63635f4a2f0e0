/** What the quit drain needs from Electron's `app` (the stub and the real one both have it). */
export interface QuittableApp {
  on(event: 'before-quit', listener: (event: { preventDefault: () => void }) => void): unknown
  quit(): void
}

/**
 * Quitting waits for background work to finish (SPEC §7 drain): the first quit is held while
 * `drain` runs (a running extraction, a sync), for at most `timeoutMs`; then the app quits.
 */
export function drainOnQuit(app: QuittableApp, drain: () => Promise<void>, timeoutMs = 60_000): void {
  let state: 'running' | 'draining' | 'drained' = 'running'
  app.on('before-quit', (event) => {
    if (state === 'drained') return
    event.preventDefault()
    if (state === 'draining') return
    state = 'draining'
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))
    void Promise.race([drain().catch(() => {}), timeout]).finally(() => {
      clearTimeout(timer)
      state = 'drained'
      app.quit()
    })
  })
}
