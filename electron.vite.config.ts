import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'

/**
 * The dev server (npm start) injects React Refresh's inline preamble; the strict CSP would block
 * it. Only the served page gets 'unsafe-inline'; built files keep `script-src 'self'`.
 */
function devCsp(): Plugin {
  return {
    name: 'memdir-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"),
  }
}

export default defineConfig({
  main: {
    build: {
      // Pure-JS libraries on the CLI's hot path are bundled: one chunk loads faster than the
      // hundreds of files each ships (the SDK alone is ~1,200), which `memdir hook prompt` feels.
      // `yaml` stays external: frontmatter.ts requires it only for headers its fast path cannot read.
      externalizeDeps: { exclude: ['valibot', 'zod', 'stemmer', '@anthropic-ai/sdk'] },
      outDir: 'out/main',
      rollupOptions: {
        input: {
          main: resolve('src-main/electron/main.ts'),
          cli: resolve('src-main/cli/entry.ts'),
          // The CLI as a function (runMain), for the prompt hook's CommonJS first step to hand over
          // to (out/main/hook-prompt.cjs, built by scripts/build-hook-prompt.mjs).
          'cli-main': resolve('src-main/cli/main.ts'),
          // Blocking file reads run here, off the main thread (core/store/scan-worker-client.ts).
          'scan-worker': resolve('src-main/core/store/scan-worker.ts'),
        },
        output: {
          // Node's ESM loader pays ~0.5–1 ms per module: the small modules every command needs
          // (paths, settings) go in one chunk instead of a dozen. The RPC contract stays out: building
          // its schemas costs more than `memdir path` itself.
          codeSplitting: {
            groups: [
              {
                // What `memdir list`, `memdir recall` and the prompt hook load: scanning, headers,
                // caches, recall and injection, one chunk instead of fifteen.
                name: 'memory',
                priority: 1,
                test: /src-main[\\/]core[\\/](store[\\/](scan|scan-sync|scan-worker-client|list-memory-files|dir-listing|read-head|packed-headers|memory-header|header-cache|stamped-cache|frontmatter|manifest)\.ts|recall[\\/])|src-main[\\/]host[\\/](activity[\\/]activity-store|memories[\\/](manifest-view|memory-caches)|previews[\\/](recall-view|prompt-recall|recall-state))\.ts|src-main[\\/]agents[\\/]hooks[\\/]prompt-hook\.ts/,
              },
              {
                name: 'base',
                // Before 'memory', which would otherwise take these along as its dependencies.
                priority: 2,
                test: /src-shared[\\/](settings|schema-common)\.ts|src-main[\\/]core[\\/]paths[\\/]|src-main[\\/]host[\\/]settings[\\/](app-data|project|config|project-values)\.ts|src-main[\\/]core[\\/]store[\\/](atomic-write|lazy-crypto|contained-path|ensure-dir)\.ts|src-main[\\/]cli[\\/]io\.ts/,
              },
            ],
          },
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can require nothing but electron: the contract's schema library goes in the bundle.
      externalizeDeps: { exclude: ['valibot'] },
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src-preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    // JSX is written against React's API and runs on Preact's compat layer (preact/compat): the
    // same hooks, lazy/Suspense, portals and useSyncExternalStore, in ~15 KB instead of react-dom's
    // ~190 KB. Evaluating react-dom was the largest part of the first screen's start-up (first
    // memory row painted: 562 → 457 ms at 200 memories, 611 → 491 ms at 10,000; bench/README).
    // React Fast Refresh cannot patch Preact components, so in `npm start` an edited component
    // reloads the page instead.
    plugins: [react({ refreshExclude: /./ }), devCsp()],
    resolve: {
      alias: [
        { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
        { find: /^react-dom$/, replacement: 'preact/compat' },
        { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
        { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
        { find: /^react$/, replacement: 'preact/compat' },
      ],
    },
    build: {
      minify: true,
      // Chromium and Electron 45 only: no down-levelling of modern syntax.
      target: 'es2023',
      // Views load on demand from the same origin (app:// or 127.0.0.1): no preload helper needed.
      modulePreload: false,
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
})
