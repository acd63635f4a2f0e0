// A recording stand-in for the `electron` module, so the built main bundle can run in plain Node
// and report what it configured. Test-only.
const record = (kind, data) => process.send?.({ kind, data })
const handlers = {}
class WebContents {
  constructor() {
    this.mainFrame = {}
  }
  setWindowOpenHandler(fn) {
    record(
      'windowOpen',
      ['https://evil.example/x', 'http://github.com/a', 'https://github.com/a'].map(
        (url) => fn({ url }).action,
      ),
    )
  }
  on(event, fn) {
    if (event === 'will-navigate' || event === 'will-frame-navigate') {
      let prevented = false
      fn({ preventDefault: () => (prevented = true), url: 'https://evil.example/' })
      record('navigate', { event, prevented })
    }
  }
  send() {}
}
export class BrowserWindow {
  static all = []
  static getAllWindows() {
    return BrowserWindow.all
  }
  constructor(options) {
    this.webContents = new WebContents()
    BrowserWindow.all.push(this)
    record('browserWindow', options)
  }
  once() {}
  on() {}
  isDestroyed() {
    return false
  }
  async loadURL(url) {
    record('loadURL', url)
    setTimeout(() => record('done', true), 50)
  }
}
export const app = {
  isPackaged: true,
  requestSingleInstanceLock: () => {
    record('singleInstance', true)
    return true
  },
  whenReady: () => Promise.resolve(),
  on: (e, fn) => (handlers[e] = fn),
  quit: () => {},
  getVersion: () => '0.0.0-test',
  getPath: () => process.env.MEMDIR_DATA_DIR ?? '/tmp',
  setLoginItemSettings: (s) => record('loginItem', s),
}
export class Tray {
  constructor(icon) {
    record('tray', icon.path)
  }
  setToolTip() {}
  on() {}
  setContextMenu(menu) {
    record(
      'trayMenu',
      menu.template.filter((i) => i.type !== 'separator').map((i) => i.label),
    )
  }
}
// Stubbed crypto: reversible, but never the plain text on disk (tests check both).
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (plain) => Buffer.concat([Buffer.from('stubenc:'), Buffer.from(plain).map((b) => b ^ 0x5a)]),
  decryptString: (data) => {
    if (!data.subarray(0, 8).equals(Buffer.from('stubenc:'))) throw new Error('not encrypted by this stub')
    return Buffer.from(data.subarray(8).map((b) => b ^ 0x5a)).toString()
  },
}
export const nativeImage = { createFromPath: (path) => ({ path }) }
export const session = {
  defaultSession: {
    setPermissionRequestHandler: (fn) => fn(null, 'geolocation', (allowed) => record('permission', allowed)),
    setPermissionCheckHandler: (fn) => record('permissionCheck', fn()),
  },
}
export const protocol = {
  registerSchemesAsPrivileged: (schemes) => record('schemes', schemes),
  handle: (scheme) => record('protocol', scheme),
}
export const ipcMain = { handle: (channel) => record('ipc', channel), removeHandler: () => {} }
export const shell = { openExternal: (url) => record('openExternal', url) }
export const Menu = { buildFromTemplate: (template) => ({ template }), setApplicationMenu: () => {} }
export class Notification {
  static isSupported() {
    return false
  }
}
export const net = { fetch: () => {} }
export const dialog = { showMessageBoxSync: () => 2 }
export default {
  app,
  BrowserWindow,
  session,
  protocol,
  ipcMain,
  shell,
  Menu,
  Notification,
  net,
  dialog,
  Tray,
  nativeImage,
  safeStorage,
}
