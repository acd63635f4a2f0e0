import {
  app,
  BrowserWindow,
  dialog,
  Menu,
  nativeImage,
  Notification,
  safeStorage,
  session,
  shell,
  Tray,
} from 'electron'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SettingsView } from '../../src-shared/types.js'
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../host/app/host.js'
import { packageRoot, rendererDir, resourcesDir } from '../host/integrations/package-paths.js'
import { hideOnClose, trayMenu, type TrayState } from './background.js'
import { bindHost } from './ipc.js'
import { keychainCipher } from './keychain.js'
import { buildMenu } from './menu.js'
import { notifyFor } from './notifications.js'
import { drainOnQuit } from './quit.js'
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './protocol.js'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = packageRoot(import.meta.url)
const ALLOWED_EXTERNAL = [/^https:\/\/(docs\.anthropic\.com|github\.com)\//]

registerAppScheme()
let host: Host | undefined
let tray: Tray | undefined
let quitting = false
let settings: Pick<SettingsView, 'keepInBackground' | 'startAtLogin' | 'extractionEnabled'> = {
  keepInBackground: true,
  startAtLogin: false,
  extractionEnabled: true,
}
const trayState: TrayState = { extractionEnabled: true }
const noticeFile = () => join(app.getPath('userData'), 'background-notice-shown')

function showWindow(): void {
  const [win] = BrowserWindow.getAllWindows()
  if (!win) return void createWindow()
  if (win.isMinimized()) win.restore()
  win.show()
  win.focus()
}

function refreshTray(): void {
  if (!tray) return
  tray.setContextMenu(
    Menu.buildFromTemplate(
      trayMenu(trayState, {
        open: showWindow,
        syncNow: () => void host?.call('team/syncNow', undefined),
        setExtraction: (on) => void host?.call('settings/set', { extractionEnabled: on }),
        quit: () => app.quit(),
      }),
    ),
  )
}

/** Settings the shell acts on: background mode, login item, the tray's pause/resume. */
function applySettings(s: SettingsView): void {
  settings = s
  trayState.extractionEnabled = s.extractionEnabled
  app.setLoginItemSettings({ openAtLogin: s.startAtLogin })
  refreshTray()
}

function createTray(): void {
  const icon = nativeImage.createFromPath(join(resourcesDir(root), 'icons', 'trayTemplate.png'))
  tray = new Tray(icon)
  tray.setToolTip('Memdir')
  tray.on('click', showWindow)
  refreshTray()
}

async function createWindow(): Promise<void> {
  // Options stay literal here so static checks (electronegativity) can verify them.
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Memdir',
    show: false,
    backgroundColor: '#f6f6f3',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
    },
  })
  win.once('ready-to-show', () => win.show())
  hideOnClose(
    win,
    {
      keepInBackground: () => settings.keepInBackground,
      noticeShown: () => existsSync(noticeFile()),
      markNoticeShown: () => writeFileSync(noticeFile(), new Date().toISOString()),
      notify: (title, body) => {
        if (Notification.isSupported()) new Notification({ title, body }).show()
      },
    },
    () => quitting,
  )
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (ALLOWED_EXTERNAL.some((re) => re.test(url))) void shell.openExternal(url)
    return { action: 'deny' }
  })
  win.webContents.on('will-navigate', (event) => event.preventDefault())
  // The page holds the close while the editor has unsaved edits: ask here.
  win.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'question',
      buttons: ['Save', 'Discard', 'Cancel'],
      defaultId: 0,
      cancelId: 2,
      message: 'Save your changes before closing?',
      detail: 'The memory you are editing has unsaved changes.',
    })
    if (choice === 1)
      event.preventDefault() // discard: let the window close
    else if (choice === 0) win.webContents.send('memdir:event', { type: 'app/saveAndClose' })
  })
  // Middle-click opens go through the window-open handler above, which denies them.
  win.webContents.on('will-frame-navigate', (event) => {
    if (!event.url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault()
  })
  if (!host) {
    host = await createHost({
      env: process.env,
      resourcesDir: resourcesDir(root),
      secretCipher: keychainCipher(safeStorage),
    })
    const r = await host.call('settings/get', undefined)
    if (r.ok) applySettings(r.value as SettingsView)
    host.onEvent((e) => {
      if (e.type === 'settings/changed') applySettings(e.settings)
      if (e.type === 'activity') {
        trayState.lastActivity = e.item.title
        refreshTray()
      }
    })
  }
  const unbind = bindHost(host, win)
  const offNotify = host.onEvent(notifyFor)
  win.on('closed', () => {
    unbind()
    offNotify()
  })
  const devUrl = process.env.ELECTRON_RENDERER_URL
  await win.loadURL(devUrl && !app.isPackaged ? devUrl : `${APP_ORIGIN}/index.html`)
}

const singleInstance = process.env.MEMDIR_NO_SINGLE_INSTANCE === '1' || app.requestSingleInstanceLock()
if (!singleInstance) {
  app.quit()
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows()
    if (win) {
      if (win.isMinimized()) win.restore()
      win.focus()
    }
  })
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault())
  })
  void app.whenReady().then(async () => {
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
    session.defaultSession.setPermissionCheckHandler(() => false)
    serveRenderer(rendererDir(root))
    Menu.setApplicationMenu(buildMenu())
    createTray()
    await createWindow()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) void createWindow()
    })
  })
  app.on('before-quit', () => (quitting = true))
  // With background mode on, the app lives in the tray when its window is closed.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin' && !settings.keepInBackground) app.quit()
  })
  // Quitting waits (up to a minute) for a running extraction or sync to finish.
  drainOnQuit(app, async () => host?.close())
}
