import { describe, expect, it } from 'vitest'
import { hideOnClose, trayMenu, type HideableWindow } from './background.js'

function fakeWindow() {
  let onClose: ((e: { preventDefault: () => void }) => void) | undefined
  const log: string[] = []
  const win: HideableWindow & { close: () => void; log: string[] } = {
    log,
    on: (_e, l) => (onClose = l),
    hide: () => log.push('hide'),
    show: () => log.push('show'),
    focus: () => log.push('focus'),
    isDestroyed: () => false,
    close: () => {
      let prevented = false
      onClose?.({ preventDefault: () => (prevented = true) })
      log.push(prevented ? 'kept' : 'closed')
    },
  }
  return win
}

describe('background mode', () => {
  it('closing hides the window and explains it once; quitting or turning it off really closes', () => {
    const win = fakeWindow()
    let keep = true
    let shown = false
    let quitting = false
    const notes: string[] = []
    hideOnClose(
      win,
      {
        keepInBackground: () => keep,
        noticeShown: () => shown,
        markNoticeShown: () => (shown = true),
        notify: (title) => notes.push(title),
      },
      () => quitting,
    )
    win.close()
    win.close()
    expect(win.log).toEqual(['hide', 'kept', 'hide', 'kept'])
    expect(notes).toEqual(['Memdir is still running'])
    keep = false
    win.close()
    quitting = true
    keep = true
    win.close()
    expect(win.log.slice(4)).toEqual(['closed', 'closed'])
  })

  it('the tray menu opens, syncs, pauses or resumes extraction, shows the last activity and quits', () => {
    const calls: string[] = []
    const actions = {
      open: () => calls.push('open'),
      syncNow: () => calls.push('sync'),
      setExtraction: (on: boolean) => calls.push(`extraction ${on}`),
      quit: () => calls.push('quit'),
    }
    const on = trayMenu({ extractionEnabled: true, lastActivity: 'Memory updated in shop: 2 files' }, actions)
    expect(on.filter((i) => i.type !== 'separator').map((i) => i.label)).toEqual([
      'Open Memdir',
      'Sync now',
      'Pause extraction',
      'Memory updated in shop: 2 files',
      'Quit Memdir',
    ])
    for (const i of on) i.click?.()
    expect(calls).toEqual(['open', 'sync', 'extraction false', 'quit'])
    const off = trayMenu({ extractionEnabled: false }, actions)
    expect(off.map((i) => i.label)).toContain('Resume extraction')
    expect(off.find((i) => i.label === 'No activity yet')?.enabled).toBe(false)
  })
})
