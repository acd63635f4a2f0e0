#!/usr/bin/env node
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const entry = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
if (!existsSync(entry)) {
  process.stderr.write('memdir: the CLI is not built yet — run `npm run build` first\n')
  process.exit(1)
}
await import(entry)
