export * from './freshness.js'
