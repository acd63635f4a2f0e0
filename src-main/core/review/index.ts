export * from './overlay-tools.js'
export * from './proposals.js'
