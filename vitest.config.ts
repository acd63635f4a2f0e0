import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'src-main/**/*.test.ts',
      'src-server/**/*.test.ts',
      'src-shared/**/*.test.ts',
      'test/**/*.test.ts',
      'e2e/**/*.test.ts',
    ],
    // e2e tests drive Chromium and several servers on 2 shared cores
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
})
