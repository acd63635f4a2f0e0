import { contextBridge } from 'electron'

// The typed RPC surface (window.memdir) is built from src-shared's contract; until the
// workspace UI lands, only the app identity is exposed.
contextBridge.exposeInMainWorld('memdir', { app: 'memdir', version: '0.1.0' })
