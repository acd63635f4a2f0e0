export * from './extraction-prompt.js'
export * from './mutual-exclusion.js'
export * from './extract-memories.js'
