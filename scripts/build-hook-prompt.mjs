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
})
