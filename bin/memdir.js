#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see below */
'use strict'
// CommonJS (bin/package.json says so): the prompt hook, which Claude Code runs before every
// prompt, then starts without Node's ES module loader (~10 % of a bare Node start). Every other
// command, and the prompt hook when no app answers it, loads the ES module CLI.
const { existsSync } = require('node:fs')
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')

// Node ≥ 22.1 keeps V8's compiled code between runs (each hook start pays less); older Node has none.
require('node:module').enableCompileCache?.()
const out = join(__dirname, '..', 'out', 'main')
const [command, sub, ...rest] = process.argv.slice(2)
const hookPrompt = join(out, 'hook-prompt.cjs')
if (command === 'hook' && sub === 'prompt' && !rest.length && existsSync(hookPrompt)) {
  require(hookPrompt)
} else {
  const entry = join(out, 'cli.js')
  if (!existsSync(entry)) {
    process.stderr.write('memdir: the CLI is not built yet — run `npm run build` first\n')
    process.exit(1)
  }
  void import(pathToFileURL(entry).href)
}
