#!/usr/bin/env node
import { existsSync } from 'node:fs'
import module from 'node:module'
import { fileURLToPath } from 'node:url'

const entry = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
if (!existsSync(entry)) {
  process.stderr.write('memdir: the CLI is not built yet — run `npm run build` first\n')
  process.exit(1)
}
// Node ≥ 22.1 keeps V8's compiled code between runs (each hook start pays less); older Node has none.
module.enableCompileCache?.()
await import(entry)
