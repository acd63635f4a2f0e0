// `memdir hook prompt` runs before every Claude Code prompt: it is two CommonJS files in out/main,
// hook-prompt.cjs and hook-offline.cjs, that bin/memdir.js loads without starting Node's ES module
// loader. The rest of the CLI is built by electron-vite (npm run build runs both).
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

/**
 * The prompt hook's fs/promises over the blocking calls (src-main/cli/blocking-fs-promises.ts says
 * why). Only these two files, which run in the hook's one-shot process: the app and every other
 * command keep the real module.
 */
const blockingFsPromises = {
  name: 'blocking-fs-promises',
  setup(b) {
    const shim = fileURLToPath(new URL('../src-main/cli/blocking-fs-promises.ts', import.meta.url))
    b.onResolve({ filter: /^(node:)?fs\/promises$/ }, (args) =>
      args.importer === shim ? undefined : { path: shim },
    )
  },
}

await build({
  // The first asks a running app (and is all a prompt the app answers loads); the second recalls
  // offline when none does.
  entryPoints: {
    'hook-prompt': 'src-main/cli/hook-prompt-entry.ts',
    'hook-offline': 'src-main/cli/commands/hook-prompt.ts',
  },
  outdir: 'out/main',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
  // Loaded from node_modules when needed (a model configured; a header only YAML can read).
  external: ['@anthropic-ai/sdk', 'yaml'],
  // import() becomes require(): bin/memdir.js runs this file from V8's code cache on Node < 22.1,
  // where a dynamic import cannot load anything.
  supported: { 'dynamic-import': false },
  // What import.meta.url means in the ES module build: this file's URL (the scan worker and
  // createRequire resolve from it; out/main holds scan-worker.js too).
  define: { 'import.meta.url': '__memdirFileUrl' },
  banner: { js: "const __memdirFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [blockingFsPromises],
})
