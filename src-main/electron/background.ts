import { cutText } from '../../src-shared/unicode.js'
/**
 * Background mode: closing the window hides it and Memdir keeps extracting, consolidating and
 * syncing from the tray (menu: Open Memdir, Sync now, Pause/Resume extraction, the last activity,
 * Quit). Written against small structural types so it is tested without Electron.
 */

export interface HideableWindow {
  on(event: 'close', listener: (e: { preventDefault: () => void }) => void): unknown
  hide(): void
  show(): void
  focus(): void
  isDestroyed(): boolean
}

export interface BackgroundPrefs {
  keepInBackground: () => boolean
  /** First time the window is closed into the background: explain it once. */
  noticeShown: () => boolean
  markNoticeShown: () => void
  notify: (title: string, body: string) => void
}

/** Closing hides the window while background mode is on and the app is not quitting. */
export function hideOnClose(win: HideableWindow, prefs: BackgroundPrefs, quitting: () => boolean): void {
  win.on('close', (e) => {
    if (quitting() || !prefs.keepInBackground()) return
    e.preventDefault()
    win.hide()
    if (!prefs.noticeShown()) {
      prefs.markNoticeShown()
      prefs.notify(
        'Memdir is still running',
        'It keeps extracting, consolidating and syncing memory in the background. Quit from the tray icon.',
      )
    }
  })
}

export interface TrayState {
  extractionEnabled: boolean
  lastActivity?: string
}

export interface TrayActions {
  open: () => void
  syncNow: () => void
  setExtraction: (on: boolean) => void
  quit: () => void
}

export interface TrayMenuItem {
  label: string
  enabled?: boolean
  click?: () => void
  type?: 'separator'
}

/** The tray's menu for the current state (rebuilt when it changes). */
export function trayMenu(state: TrayState, actions: TrayActions): TrayMenuItem[] {
  return [
    { label: 'Open Memdir', click: actions.open },
    { label: 'Sync now', click: actions.syncNow },
    state.extractionEnabled
      ? { label: 'Pause extraction', click: () => actions.setExtraction(false) }
      : { label: 'Resume extraction', click: () => actions.setExtraction(true) },
    { type: 'separator', label: '' },
    { label: state.lastActivity ? truncate(state.lastActivity, 60) : 'No activity yet', enabled: false },
    { type: 'separator', label: '' },
    { label: 'Quit Memdir', click: actions.quit },
  ]
}

const truncate = (s: string, n: number) => (s.length > n ? cutText(s, n - 1) + '…' : s)
