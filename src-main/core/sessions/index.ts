export * from './transcript.js'
export * from './transcript-tail.js'
export * from './session-watcher.js'
