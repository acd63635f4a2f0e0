import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach } from 'vitest'
import type { ProjectContext } from '../../src-main/core/paths/context.js'

const created: string[] = []

afterEach(() => {
  // A detached hook process may still be finishing a write: retry ENOTEMPTY / EBUSY for up to 5 s
  // (under the full suite on 2 cores a detached extraction outlived the 1 s this allowed once).
  while (created.length)
    rmSync(created.pop() as string, { recursive: true, force: true, maxRetries: 50, retryDelay: 100 })
})

/** A real temp dir (realpath'd: macOS /var → /private/var), removed after the test. */
export function tempDir(prefix = 'memdir-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  created.push(dir)
  return dir
}

/**
 * A temp dir at a path fixed in advance (emptied first), removed after the test: for output that
 * shows paths and must be the same on every run, such as screenshots compared with baselines.
 */
export function fixedTempDir(name: string): string {
  const dir = join(realpathSync(tmpdir()), name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  created.push(dir)
  return dir
}

export function writeFile(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, content)
  return path
}

export interface Sandbox {
  root: string
  home: string
  configDir: string
  project: string
  env: Record<string, string | undefined>
  ctx: (over?: Partial<ProjectContext>) => ProjectContext
}

/** HOME, CLAUDE_CONFIG_DIR and a project dir inside one temp root; no process globals touched. */
export function sandbox(extraEnv: Record<string, string | undefined> = {}, fixedRoot?: string): Sandbox {
  const root = fixedRoot ? fixedTempDir(fixedRoot) : tempDir()
  const home = join(root, 'home')
  const configDir = join(home, '.claude')
  const project = join(root, 'work', 'proj')
  mkdirSync(configDir, { recursive: true })
  mkdirSync(project, { recursive: true })
  const env = { HOME: home, CLAUDE_CONFIG_DIR: configDir, ...extraEnv }
  return {
    root,
    home,
    configDir,
    project,
    env,
    ctx: (over = {}) => ({
      projectRoot: project,
      env,
      homeDir: home,
      policySettingsPath: join(root, 'policy', 'managed-settings.json'),
      ...over,
    }),
  }
}
