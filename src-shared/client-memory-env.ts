/**
 * The variables of Claude Code's environment that decide a session's memory dir and whether auto
 * memory is on. A hook runs with the client's environment and the app it hands a job to with its
 * own, so a hook sends these along (the set ones; a missing one is unset for the client). No
 * schema library here: the prompt hook's first step loads this file.
 */
export const CLIENT_MEMORY_ENV = [
  'CLAUDE_CONFIG_DIR',
  'CLAUDE_CODE_DISABLE_AUTO_MEMORY',
  'CLAUDE_CODE_SIMPLE',
  'CLAUDE_CODE_REMOTE',
  'CLAUDE_CODE_REMOTE_MEMORY_DIR',
  'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE',
] as const

export type ClientMemoryEnvValues = Partial<Record<(typeof CLIENT_MEMORY_ENV)[number], string>>

type EnvLike = Readonly<Record<string, string | undefined>>

/** What of `env` a hook sends with a job. */
export function clientMemoryEnv(env: EnvLike): ClientMemoryEnvValues {
  const out: ClientMemoryEnvValues = {}
  for (const k of CLIENT_MEMORY_ENV) if (env[k] !== undefined) out[k] = env[k]
  return out
}

/**
 * The environment a job is answered in: the app's own, with the client's values of these variables
 * in place of its own (an unset one unset). A job from an older hook, which sends none, keeps the app's.
 */
export function withClientMemoryEnv(appEnv: EnvLike, client: ClientMemoryEnvValues | undefined): EnvLike {
  if (!client) return appEnv
  const env: Record<string, string | undefined> = { ...appEnv }
  for (const k of CLIENT_MEMORY_ENV) delete env[k]
  return { ...env, ...client }
}
