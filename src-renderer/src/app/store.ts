import { getClient } from '../transport/client'
import { createMemdirStore } from './create-store'

export type { Draft, Store, View } from './state'

/** The app's store, over the transport of this window (Electron's preload or the browser's). */
export const useStore = createMemdirStore({
  client: getClient(),
  storage: localStorage,
  closeWindow: () => window.close(),
})
