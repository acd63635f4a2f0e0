export * from './errors.js'
export * from './types.js'
export * from './api.js'
