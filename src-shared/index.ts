export * from './errors.js'
export * from './types.js'
export * from './api.js'
export * from './contract.js'
