import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import type { Host } from '../host/app/host.js'
import { APP_ORIGIN } from './protocol.js'

/** Only our own top frame, loaded from app://, may call the host. */
export function isTrustedSender(event: IpcMainInvokeEvent, win: BrowserWindow): boolean {
  const frame = event.senderFrame
  if (!frame || event.sender !== win.webContents || frame !== win.webContents.mainFrame) return false
  const devUrl = process.env.ELECTRON_RENDERER_URL
  return frame.url.startsWith(`${APP_ORIGIN}/`) || Boolean(devUrl && frame.url.startsWith(devUrl))
}

export function bindHost(host: Host, win: BrowserWindow): () => void {
  ipcMain.handle('memdir:rpc', async (event, method: unknown, args: unknown) => {
    if (!isTrustedSender(event, win))
      return { ok: false, error: { code: 'FORBIDDEN', message: 'untrusted sender' } }
    // The host checks the method name and the arguments against the contract.
    return host.call(method, args)
  })
  const off = host.onEvent((e) => {
    if (!win.isDestroyed()) win.webContents.send('memdir:event', e)
  })
  return () => {
    off()
    ipcMain.removeHandler('memdir:rpc')
  }
}
