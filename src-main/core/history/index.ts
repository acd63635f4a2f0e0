export * from './history-store.js'
export * from './line-diff.js'
export * from './recorder.js'
export * from './restore.js'
