// `memdir hook prompt` runs before every Claude Code prompt: its first step (asking a running app)
// is one CommonJS file, out/main/hook-prompt.cjs, that bin/memdir.js requires without starting
// Node's ES module loader. The rest of the CLI is built by electron-vite (npm run build runs both).
import { build } from 'esbuild'

await build({
  entryPoints: ['src-main/cli/hook-prompt-entry.ts'],
  outfile: 'out/main/hook-prompt.cjs',
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
})
