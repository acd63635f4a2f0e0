// Source-mode entry for the scan worker (tests, benchmarks): Node 20 ignores `--import tsx` in a
// worker's execArgv, so the worker registers tsx's loader itself before loading the TypeScript.
import { register } from 'tsx/esm/api'

register()
await import('./scan-worker.ts')
