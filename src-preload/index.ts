import { contextBridge, ipcRenderer } from 'electron'
import { createClient, type MemdirEvent } from '../src-shared/api'
import { RpcFailure, type RpcResult } from '../src-shared/errors'

// Named functions built from the contract: the page never gets a raw invoke(channel).
const client = createClient(
  async (method, args) => {
    const result = (await ipcRenderer.invoke('memdir:rpc', method, args)) as RpcResult<unknown>
    if (!result.ok) throw new RpcFailure(result.error)
    return result.value
  },
  (listener) => {
    const handler = (_e: unknown, event: MemdirEvent) => listener(event)
    ipcRenderer.on('memdir:event', handler)
    return () => ipcRenderer.removeListener('memdir:event', handler)
  },
)

contextBridge.exposeInMainWorld('memdir', client)
