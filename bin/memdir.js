#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see below */
'use strict'
// CommonJS (bin/package.json says so): the prompt hook, which Claude Code runs before every
// prompt, then starts without Node's ES module loader (~10 % of a bare Node start). Every other
// command, and the prompt hook when its input is not JSON, loads the ES module CLI.
const fs = require('node:fs')
const { basename, dirname, isAbsolute, join } = require('node:path')
const { pathToFileURL } = require('node:url')

// Node ≥ 22.1 keeps V8's compiled code between runs (each hook start pays less); older Node has
// none, and the prompt hook's file keeps its own (requireWithCodeCache).
const Module = require('node:module')
const nodeCompileCache = Module.enableCompileCache
nodeCompileCache?.()
const out = join(__dirname, '..', 'out', 'main')
const [command, sub, ...rest] = process.argv.slice(2)
const hookPrompt = join(out, 'hook-prompt.cjs')
if (command === 'hook' && sub === 'prompt' && !rest.length && fs.existsSync(hookPrompt)) {
  // The first step is small (compiling it costs less than a cache would); the offline recall is not.
  const { hookPrompt: run } = require(hookPrompt)
  const offline = join(out, 'hook-offline.cjs')
  void run({
    offline: () => (nodeCompileCache ? require(offline) : requireWithCodeCache(offline)),
    // Input that is not JSON: the ES module CLI as a function (entry cli-main), which says why.
    fullCli: async (stdin) => {
      const { runMain } = await import(pathToFileURL(join(out, 'cli-main.js')).href)
      await runMain(process.argv.slice(2), stdin)
    },
  })
} else {
  const entry = join(out, 'cli.js')
  if (!fs.existsSync(entry)) {
    process.stderr.write('memdir: the CLI is not built yet — run `npm run build` first\n')
    process.exit(1)
  }
  void import(pathToFileURL(entry).href)
}

/**
 * Loads a CommonJS file (its exports) compiled with V8's code cache, kept between runs in Memdir's
 * data dir (cache/code, the user's own: a cache is code V8 runs without checking it against the
 * source, so one that another user could have written is never read). Compiling the offline
 * hook's ~180 KB, and the functions a run calls, is ~10 ms of a prompt otherwise. Any failure
 * falls back to require.
 */
function requireWithCodeCache(file) {
  const vm = require('node:vm')
  let source
  let cachePath
  let cached
  try {
    source = fs.readFileSync(file, 'utf8')
    const home = process.env.HOME || process.env.USERPROFILE || require('node:os').homedir()
    // The data dir as Memdir reads MEMDIR_DATA_DIR (host/settings/data-dir.ts): no cache in a relative one.
    const set = process.env.MEMDIR_DATA_DIR
    const dataDir = !set ? join(home, '.memdir') : /^~[/\\]./.test(set) ? join(home, set.slice(2)) : set
    if (!isAbsolute(dataDir)) return require(file)
    const dir = join(dataDir, 'cache', 'code')
    // The cache belongs to this build of the file and this Node: V8 itself checks only the length.
    const { size, mtimeMs } = fs.statSync(file)
    cachePath = join(
      dir,
      `${basename(file, '.cjs')}-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}.bin`,
    )
    if (ownedByMe(dir) && ownedByMe(cachePath)) cached = fs.readFileSync(cachePath)
  } catch {
    cached = undefined
  }
  if (source === undefined) return require(file)
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached })
  if (!cached || script.cachedDataRejected)
    process.once('exit', () => saveCodeCache(script, cachePath, basename(file, '.cjs')))
  const mod = new Module(file, module)
  mod.filename = file
  mod.paths = Module._nodeModulePaths(dirname(file))
  script
    .runInThisContext()
    .call(mod.exports, mod.exports, Module.createRequire(file), mod, file, dirname(file))
  return mod.exports
}

/** Whether `path` is this user's and nobody else can write it (always, where there are no uids). */
function ownedByMe(path) {
  if (!process.getuid) return true
  const s = fs.lstatSync(path)
  return s.uid === process.getuid() && (s.mode & 0o022) === 0 && !s.isSymbolicLink()
}

/** Code caches of the prompt hook kept side by side: this build's and the newest of others. */
const KEPT_CODE_CACHES = 4

/** Writes the code cache after the run (it then holds the functions the run compiled), atomically. */
function saveCodeCache(script, path, prefix) {
  if (!path) return
  try {
    const dir = dirname(path)
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    if (!ownedByMe(dir)) return
    // Other builds of the file, or another Node's: the newest few stay (two installs, or the hook
    // run by two Nodes, would otherwise throw each other's away at every prompt), older ones go,
    // and so does what a write cut short left (a .tmp).
    const others = fs.readdirSync(dir).filter((f) => f.startsWith(`${prefix}-`) && f !== basename(path))
    const caches = others
      .filter((f) => f.endsWith('.bin'))
      .map((f) => ({ f, at: fs.statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at)
      .map(({ f }) => f)
    const stale = [...others.filter((f) => !f.endsWith('.bin')), ...caches.slice(KEPT_CODE_CACHES - 1)]
    for (const f of stale) fs.rmSync(join(dir, f), { force: true })
    const tmp = `${path}.${process.pid}.tmp`
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 })
    fs.renameSync(tmp, path)
  } catch {
    // A cache is only ever a shortcut.
  }
}
