import { benchCli } from './cli.js'
import { benchClientHooks } from './client-hooks.js'
import { benchDiff } from './diff.js'
import { benchHealth } from './health.js'
import { benchHooks } from './hooks.js'
import { benchHostStart } from './host-start.js'
import { benchRecallPrep } from './recall-prep.js'
import { benchRecallQuality } from './recall-quality.js'
import { benchScan } from './scan.js'
import { benchSync } from './sync.js'
import { benchTeamLoad } from './team-load.js'
import { benchUi } from './ui.js'

const only = process.argv.slice(2)
const all: Record<string, () => Promise<void>> = {
  scan: () => benchScan(),
  'recall-prep': () => benchRecallPrep(),
  'recall-quality': () => benchRecallQuality(),
  sync: () => benchSync(),
  ui: () => benchUi(),
  'host-start': () => benchHostStart(),
  cli: () => benchCli(),
  diff: () => benchDiff(),
  hooks: () => benchHooks(),
  'client-hooks': () => benchClientHooks(),
  health: () => benchHealth(),
  'team-load': () => benchTeamLoad(),
}
for (const [name, run] of Object.entries(all)) if (!only.length || only.includes(name)) await run()
