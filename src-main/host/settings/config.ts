import type { AppSettings } from '../../../src-shared/settings.js'
import { DEFAULT_AGENT_MODEL, DEFAULT_SELECTOR_MODEL, type ModelConfig } from '../../core/model/config.js'
import {
  isEnvDefinedFalsy,
  isEnvTruthy,
  type Env,
  type ProjectContext,
  type SecretValues,
} from '../../core/paths/context.js'
import type { ProjectValues } from '../../../src-shared/settings.js'
import { loadAppSettings } from './app-data.js'
import { projectMemoryDir, projectValues } from './project-values.js'

export type ConfigSource = 'env' | 'settings' | 'default'

export interface Effective<T> {
  value: T
  source: ConfigSource
  /** The environment variable that sets (or would override) it. */
  envVar?: string
}

/**
 * The configuration in use, each value with where it came from. One rule everywhere: an environment
 * variable overrides the saved setting, which overrides the default. The Settings view shows this,
 * and the app, the CLI, the hooks and the MCP server all run with it.
 */
export interface EffectiveConfig {
  apiKey: Effective<string | undefined>
  authToken: Effective<string | undefined>
  baseURL: Effective<string | undefined>
  selectorModel: Effective<string>
  agentModel: Effective<string>
  extractionEnabled: Effective<boolean>
  dreamEnabled: Effective<boolean>
  dreamMinHours: Effective<number>
  dreamMinSessions: Effective<number>
  teamMemoryEnabled: Effective<boolean | undefined>
  /** This project's team server and repo (the repo's default, the git origin, is resolveTeamTarget's). */
  teamUrl: Effective<string | undefined>
  teamRepo: Effective<string | undefined>
  reviewMode: Effective<boolean>
  memoryFormat: Effective<'auto' | 'flat' | 'nested'>
}

function pick<T>(
  envVar: string | undefined,
  fromEnv: T | undefined,
  saved: T | undefined,
  fallback: T,
): Effective<T> {
  if (fromEnv !== undefined) return { value: fromEnv, source: 'env', envVar }
  if (saved !== undefined) return { value: saved, source: 'settings', envVar }
  return { value: fallback, source: 'default', envVar }
}

const str = (v: string | undefined) => (v ? v : undefined)
const num = (v: string | undefined) =>
  v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined
const flag = (v: string | undefined) => (isEnvTruthy(v) ? true : isEnvDefinedFalsy(v) ? false : undefined)

/**
 * `secrets`: from the keychain or a 0600 file; a plain value an older settings file holds still
 * counts. `project`: the values of the project this configuration is for (team server and repo).
 */
export function effectiveConfig(
  env: Env,
  s: AppSettings,
  secrets: SecretValues = {},
  project: ProjectValues = {},
): EffectiveConfig {
  return {
    apiKey: pick('ANTHROPIC_API_KEY', str(env.ANTHROPIC_API_KEY), str(secrets.apiKey) ?? str(s.apiKey), undefined),
    authToken: pick('ANTHROPIC_AUTH_TOKEN', str(env.ANTHROPIC_AUTH_TOKEN), undefined, undefined),
    baseURL: pick('ANTHROPIC_BASE_URL', str(env.ANTHROPIC_BASE_URL), str(s.baseURL), undefined),
    selectorModel: pick('MEMDIR_SELECTOR_MODEL', str(env.MEMDIR_SELECTOR_MODEL), str(s.selectorModel), DEFAULT_SELECTOR_MODEL),
    agentModel: pick('MEMDIR_AGENT_MODEL', str(env.MEMDIR_AGENT_MODEL), str(s.agentModel), DEFAULT_AGENT_MODEL),
    // Only an explicit MEMDIR_EXTRACTION=0 switches extraction off from the environment.
    extractionEnabled: pick('MEMDIR_EXTRACTION', isEnvDefinedFalsy(env.MEMDIR_EXTRACTION) ? false : undefined, s.extractionEnabled, true),
    dreamEnabled: pick(undefined, undefined, s.dreamEnabled, true),
    dreamMinHours: pick('MEMDIR_DREAM_MIN_HOURS', num(env.MEMDIR_DREAM_MIN_HOURS), s.dreamMinHours, 24),
    dreamMinSessions: pick('MEMDIR_DREAM_MIN_SESSIONS', num(env.MEMDIR_DREAM_MIN_SESSIONS), s.dreamMinSessions, 5),
    teamMemoryEnabled: pick('MEMDIR_TEAM_MEMORY', flag(env.MEMDIR_TEAM_MEMORY), s.teamMemoryEnabled, undefined),
    teamUrl: pick('MEMDIR_TEAM_URL', str(env.MEMDIR_TEAM_URL), str(project.teamUrl), undefined),
    teamRepo: pick('MEMDIR_TEAM_REPO', str(env.MEMDIR_TEAM_REPO), str(project.teamRepo), undefined),
    reviewMode: pick(undefined, undefined, s.reviewMode, false),
    memoryFormat: pick(undefined, undefined, s.memoryFormat, 'auto'),
  } // prettier-ignore
}

export function modelConfigOf(c: EffectiveConfig): ModelConfig {
  return {
    apiKey: c.apiKey.value,
    authToken: c.authToken.value,
    baseURL: c.baseURL.value,
    selectorModel: c.selectorModel.value,
    agentModel: c.agentModel.value,
  }
}

/** The effective configuration of a project context: its environment, Memdir's settings and its own values. */
export function loadEffectiveConfig(ctx: ProjectContext): EffectiveConfig {
  const settings = loadAppSettings(ctx)
  return effectiveConfig(ctx.env, settings, ctx.secrets, projectValues(settings, projectMemoryDir(ctx)))
}
