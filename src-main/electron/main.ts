import { app, BrowserWindow, Menu, session, shell } from 'electron'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHost, type Host } from '../host/host.js'
import { packageRoot, rendererDir, resourcesDir } from '../host/package-paths.js'
import { bindHost } from './ipc.js'
import { buildMenu } from './menu.js'
import { notifyFor } from './notifications.js'
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './protocol.js'
import { mainWindowOptions } from './window-options.js'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = packageRoot(import.meta.url)
const ALLOWED_EXTERNAL = [/^https:\/\/(docs\.anthropic\.com|github\.com)\//]

registerAppScheme()
let host: Host | undefined

async function createWindow(): Promise<void> {
  const win = new BrowserWindow(mainWindowOptions(join(here, '../preload')))
  win.once('ready-to-show', () => win.show())
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (ALLOWED_EXTERNAL.some((re) => re.test(url))) void shell.openExternal(url)
    return { action: 'deny' }
  })
  win.webContents.on('will-navigate', (event) => event.preventDefault())
  host ??= await createHost({ env: process.env, resourcesDir: resourcesDir(root) })
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
    await createWindow()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) void createWindow()
    })
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('before-quit', () => {
    void host?.close()
  })
}
