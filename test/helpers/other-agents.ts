import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { npmInstall } from './claude-code.js'

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
  if (!existsSync(cmd)) npmInstall(dir, `${pkg}@${version}`)
  return { name, version, cmd }
}
