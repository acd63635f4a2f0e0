/** The memory core as a library: the public functions by the names SPEC.md uses. */
export * from './paths/index.js'
export * from './store/index.js'
export * from './prompt/index.js'
export * from './recall/index.js'
export * from './model/index.js'
export * from './sessions/index.js'
export * from './extract/index.js'
