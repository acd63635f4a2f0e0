import { homedir } from 'node:os'

export type Env = Readonly<Record<string, string | undefined>>

/** Secrets kept out of the settings file (keychain or a 0600 file), once this process has them. */
export interface SecretValues {
  apiKey?: string
  /** Team tokens by the server and repo they belong to (`<server URL>#<owner/repo>`). */
  teamTokens?: Readonly<Record<string, string>>
}

/**
 * Everything path resolution depends on, passed explicitly so tests and the host
 * can point it at temp dirs instead of the process globals.
 */
export interface ProjectContext {
  /** The project root (the agent's cwd). */
  projectRoot: string
  env: Env
  /** Defaults to env.HOME, then os.homedir(). */
  homeDir?: string
  /** The `--settings <file>` flag source, when given. */
  flagSettingsPath?: string
  /** Managed (policy) settings file; defaults to the platform location Claude Code reads. */
  policySettingsPath?: string
  /** Memdir's own team-memory switch (its settings), when the user set one. */
  teamMemorySwitch?: boolean
  /** The team tokens and API key where they are not in the environment or the settings file. */
  secrets?: Readonly<SecretValues>
  /**
   * Where this process reads memory files, chosen by its entry point: `inline` on the calling
   * thread (a CLI command, a hook), `threaded` in worker threads (the app, long-running commands).
   * Unset: threads, unless MEMDIR_SCAN_THREADS=0.
   */
  scan?: 'inline' | 'threaded'
}

export function resolveHomeDir(ctx: ProjectContext): string {
  return ctx.homeDir ?? ctx.env.HOME ?? ctx.env.USERPROFILE ?? homedir()
}

export function isEnvTruthy(value: string | undefined): boolean {
  if (value === undefined) return false
  return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase())
}

export function isEnvDefinedFalsy(value: string | undefined): boolean {
  if (value === undefined) return false
  return ['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase())
}

export function contextFromProcess(cwd = process.cwd(), env: Env = process.env): ProjectContext {
  return { projectRoot: cwd, env }
}
