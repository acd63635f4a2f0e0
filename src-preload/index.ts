import { messageOf } from '../src-shared/errors'
import { contextBridge, ipcRenderer } from 'electron'
import { createRawClient, type MemdirEvent } from '../src-shared/api'
import { METHODS } from '../src-shared/contract'
import type { RpcResult } from '../src-shared/errors'

// Named functions built from the contract: the page never gets a raw invoke(channel). Results
// cross as {ok, value | error} values; the renderer turns errors into RpcFailure in its own world.
const client = createRawClient(
  METHODS,
  async (method, args) => {
    try {
      return (await ipcRenderer.invoke('memdir:rpc', method, args)) as RpcResult<unknown>
    } catch (e) {
      return { ok: false, error: { code: 'TRANSPORT', message: messageOf(e) } }
    }
  },
  (listener) => {
    const handler = (_e: unknown, event: MemdirEvent) => listener(event)
    ipcRenderer.on('memdir:event', handler)
    return () => ipcRenderer.removeListener('memdir:event', handler)
  },
)

contextBridge.exposeInMainWorld('memdir', client)
