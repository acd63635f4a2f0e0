import { defineConfig } from 'vitest/config'

/**
 * Three tiers, by file name (see "Tests" in the README):
 * - unit: `*.test.ts` beside the behaviour, in one process with no socket, browser or child server
 *   (test/tiers/unit-guard.ts makes a test that tries fail with where it belongs);
 * - e2e: `*.e2e.test.ts`, the browser tests in e2e/ and the attacks in test/attacks/ (real servers
 *   on loopback, the built CLI, Chromium, the real Claude Code client);
 * - load: `*.load.test.ts` (many clients against killed servers, processes killed mid-write).
 */
const SOURCES = ['src-main', 'src-server', 'src-shared', 'src-renderer', 'test', 'e2e']
const E2E = ['**/*.e2e.test.ts', 'test/attacks/**/*.test.ts']
const LOAD = ['**/*.load.test.ts']

export default defineConfig({
  test: {
    // e2e tests drive Chromium and several servers on 2 shared cores
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: SOURCES.map((d) => `${d}/**/*.test.ts`),
          exclude: [...E2E, ...LOAD, '**/node_modules/**'],
          setupFiles: ['test/tiers/unit-guard.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: SOURCES.flatMap((d) => E2E.map((g) => (g.startsWith('**') ? `${d}/${g}` : g))),
          exclude: [...LOAD, '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: { name: 'load', include: SOURCES.map((d) => `${d}/${LOAD[0]}`) },
      },
    ],
  },
})
