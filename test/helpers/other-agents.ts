import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Other real agents as test instruments: installed from the npm registry into a cache dir (never
 * dependencies of this project) and run against the fakes in test/fake-providers. Versions are
 * pinned so a new release cannot turn the suite red overnight; MEMDIR_CODEX_VERSION and
 * MEMDIR_GEMINI_VERSION try another.
 */
export const AGENTS = {
  codex: {
    pkg: '@openai/codex',
    bin: 'codex',
    version: process.env.MEMDIR_CODEX_VERSION ?? '0.171.0',
  },
  gemini: {
    pkg: '@google/gemini-cli',
    bin: 'gemini',
    version: process.env.MEMDIR_GEMINI_VERSION ?? '0.61.0',
  },
} as const

export type AgentName = keyof typeof AGENTS

export interface InstalledAgent {
  name: AgentName
  version: string
  /** The agent's command (its package's bin). */
  cmd: string
}

function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'memdir-agents')
}

export function installAgent(name: AgentName): InstalledAgent {
  const { pkg, bin, version } = AGENTS[name]
  const dir = join(cacheDir(), `${name}-${version}`)
  const cmd = join(dir, 'node_modules', '.bin', bin)
  if (!existsSync(cmd)) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n')
    execFileSync('npm', ['i', '--no-audit', '--no-fund', '--no-package-lock', `${pkg}@${version}`], {
      cwd: dir,
      stdio: 'inherit',
      timeout: 600_000,
    })
  }
  return { name, version, cmd }
}
