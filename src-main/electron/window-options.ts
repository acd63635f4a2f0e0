import { join } from 'node:path'
import type { BrowserWindowConstructorOptions } from 'electron'

/** The BrowserWindow options, kept apart so a test can assert the security list. */
export function mainWindowOptions(preloadDir: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Memdir',
    show: false,
    backgroundColor: '#f7f7f5',
    webPreferences: {
      preload: join(preloadDir, 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  }
}
