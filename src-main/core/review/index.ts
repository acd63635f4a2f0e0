export * from './overlay-tools.js'
export * from './proposals.js'
export * from './run-memory-agent.js'
