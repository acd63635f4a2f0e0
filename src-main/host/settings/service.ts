import { MemdirError } from '../../../src-shared/errors.js'
import { teamServerUrlProblem } from '../../../src-shared/team-server-url.js'
import { credentialProblem } from '../../../src-shared/credentials.js'
import { teamRepoProblem } from '../../../src-shared/team-repo.js'
import type { AppSettings } from '../../../src-shared/settings.js'
import type { SettingsInput } from '../../../src-shared/contract.js'
import type { ClientMemoryView, SettingsView } from '../../../src-shared/types.js'
import { clientOwnMemory } from '../../core/sessions/client-memory.js'
import type { MemoryHeader } from '../../core/store/memory-header.js'
import { MAX_MEMORY_FILES, scanMemoryFiles } from '../../core/store/scan.js'
import { scannerFor } from '../../core/store/scan-worker-client.js'
import { memoryStyleFor } from './memory-style.js'
import type { Env, ProjectContext } from '../../core/paths/context.js'
import type { FeatureHandlers } from '../../../src-shared/contract.js'
import { resolveTeamTarget } from './team-target.js'
import { readAppSettings, saveAppSettings } from './app-data.js'
import { effectiveConfig } from './config.js'
import { projectValues, saveProjectValues } from './project-values.js'
import {
  API_KEY,
  secretStorageOf,
  storeSecret,
  teamTokenId,
  type HeldSecrets,
  type SecretCipher,
} from './secrets.js'

/** The plain settings the Settings form saves, and the settings.json key each is kept under. */
const SAVED_AS: [keyof SettingsInput, keyof AppSettings][] = [
  ['modelBaseURL', 'baseURL'],
  ['selectorModel', 'selectorModel'],
  ['agentModel', 'agentModel'],
  ['extractionEnabled', 'extractionEnabled'],
  ['dreamEnabled', 'dreamEnabled'],
  ['dreamMinHours', 'dreamMinHours'],
  ['dreamMinSessions', 'dreamMinSessions'],
  ['reviewMode', 'reviewMode'],
  ['memoryFormat', 'memoryFormat'],
  ['teamMemoryEnabled', 'teamMemoryEnabled'],
  ['keepInBackground', 'keepInBackground'],
  ['startAtLogin', 'startAtLogin'],
]
export interface SettingsDeps {
  base: ProjectContext
  env: Env
  cipher?: SecretCipher
  secrets: HeldSecrets
  /** The open project (its team server, repo and token are its own), if any. */
  open: () => OpenProject | undefined
  /** The open project's context with the settings just saved. */
  reopened: (ctx: ProjectContext) => ProjectContext
  /** Applies saved settings: reopens the workspace (no restart needed). */
  apply: () => Promise<void>
  changed: (view: SettingsView) => void
}

/** The open project: its context, its memory dir and, in the app, the watcher-fed list of its headers. */
interface OpenProject {
  ctx: ProjectContext
  memoryDir: string
  index?: { list: (limit?: number) => Promise<readonly MemoryHeader[]> }
}

/** The project's Claude Code and how Memdir lives beside it (Settings shows it). */
async function clientView(open: OpenProject, setting: 'auto' | 'flat' | 'nested'): Promise<ClientMemoryView> {
  const { ctx, memoryDir } = open
  // The app's index answers from memory; a scan of 10,000 files made every settings call take a second.
  const headers = open.index
    ? open.index.list(MAX_MEMORY_FILES)
    : scanMemoryFiles(memoryDir, { scanner: scannerFor(ctx) })
  const [style, own] = await Promise.all([
    headers.then((h) => memoryStyleFor(ctx, h, setting)),
    clientOwnMemory(ctx),
  ])
  return {
    ...(style.client ? { version: style.client.version, versionSource: style.client.source } : {}),
    format: style.format,
    stamps: [...style.stamps],
    ...own,
  }
}

/** Memdir's settings as the UI shows and saves them: one effective configuration, each value with its source. */
export function createSettingsService(deps: SettingsDeps) {
  const { base, cipher, secrets } = deps

  /** The settings, with the team server, repo and token of the open project (never another's). */
  async function view(): Promise<SettingsView> {
    const loaded = readAppSettings(base)
    const open = deps.open()
    const c = effectiveConfig(
      // The open project's environment: the team target variables are only the launch project's.
      open?.ctx.env ?? deps.env,
      loaded.settings,
      secrets,
      open ? projectValues(loaded.settings, open.memoryDir) : {},
    )
    const target = open ? resolveTeamTarget(open.ctx) : undefined
    const sources = Object.fromEntries(
      Object.entries(c).map(([k, v]) => [k, { source: v.source, ...(v.envVar ? { envVar: v.envVar } : {}) }]),
    )
    const apiKeyStored =
      secretStorageOf(loaded.settings, API_KEY) ?? (loaded.settings.apiKey ? 'settings' : undefined)
    const tokenStored = target?.tokenFrom === 'env' ? undefined : target?.tokenFrom
    return {
      modelBaseURL: c.baseURL.value ?? '',
      modelApiKeySet: Boolean(c.apiKey.value || c.authToken.value),
      selectorModel: c.selectorModel.value,
      agentModel: c.agentModel.value,
      extractionEnabled: c.extractionEnabled.value,
      dreamEnabled: c.dreamEnabled.value,
      dreamMinHours: c.dreamMinHours.value,
      dreamMinSessions: c.dreamMinSessions.value,
      teamUrl: c.teamUrl.value ?? '',
      teamTokenSet: Boolean(target?.token),
      secretStorage: {
        ...(tokenStored ? { teamToken: tokenStored } : {}),
        ...(apiKeyStored && (secrets.apiKey || loaded.settings.apiKey) ? { apiKey: apiKeyStored } : {}),
        keychain: Boolean(cipher?.available()),
      },
      teamRepo: c.teamRepo.value ?? '',
      reviewMode: c.reviewMode.value,
      memoryFormat: c.memoryFormat.value,
      teamMemoryEnabled: c.teamMemoryEnabled.value ?? null,
      keepInBackground: loaded.settings.keepInBackground ?? true,
      startAtLogin: loaded.settings.startAtLogin ?? false,
      sources,
      ...(loaded.problem ? { problem: loaded.problem } : {}),
      ...(open ? { client: await clientView(open, c.memoryFormat.value) } : {}),
    }
  }

  function checkInput(input: SettingsInput): void {
    const urlProblem = input.teamUrl ? teamServerUrlProblem(input.teamUrl) : undefined
    if (urlProblem) throw new MemdirError('BAD_REQUEST', `teamUrl: ${urlProblem}`)
    const tokenProblem = input.teamToken ? credentialProblem('team token', input.teamToken) : undefined
    if (tokenProblem) throw new MemdirError('BAD_REQUEST', `teamToken: ${tokenProblem}`)
    const keyProblem = input.modelApiKey ? credentialProblem('API key', input.modelApiKey) : undefined
    if (keyProblem) throw new MemdirError('BAD_REQUEST', `modelApiKey: ${keyProblem}`)
    const repoProblem = input.teamRepo ? teamRepoProblem(input.teamRepo.trim()) : undefined
    if (repoProblem) throw new MemdirError('BAD_REQUEST', `teamRepo: ${repoProblem}`)
  }

  /** The open project's team server, repo and token: saved for it alone. */
  async function saveTeamValues(input: SettingsInput): Promise<void> {
    const open = deps.open()
    if (!open)
      throw new MemdirError('NO_WORKSPACE', 'Open a project first: its team server and repo are its own.')
    await saveProjectValues(base, open.memoryDir, {
      teamUrl: input.teamUrl?.trim(),
      teamRepo: input.teamRepo?.trim(),
    })
    if (input.teamToken === undefined) return
    const target = resolveTeamTarget(deps.reopened(open.ctx))
    if (!target.pair)
      throw new MemdirError(
        'BAD_REQUEST',
        'A team token belongs to a server and a repo: set the server URL (and the repo, if the project has no git origin) first.',
      )
    await storeSecret(base, teamTokenId(target.pair), input.teamToken, cipher)
    if (input.teamToken) secrets.teamTokens[target.pair] = input.teamToken
    else delete secrets.teamTokens[target.pair]
  }

  async function save(given: SettingsInput): Promise<SettingsView> {
    // A pasted secret's surrounding spaces are not part of it.
    const input: SettingsInput = {
      ...given,
      ...(typeof given.teamToken === 'string' && { teamToken: given.teamToken.trim() }),
      ...(typeof given.modelApiKey === 'string' && { modelApiKey: given.modelApiKey.trim() }),
    }
    checkInput(input)
    const s: AppSettings = { ...readAppSettings(base).settings }
    for (const [field, key] of SAVED_AS) {
      const v = input[field]
      if (v === undefined) continue
      if (v === '' || v === null) delete s[key]
      else (s as Record<string, unknown>)[key] = v
    }
    const teamFields =
      input.teamUrl !== undefined || input.teamRepo !== undefined || input.teamToken !== undefined
    if (teamFields && !deps.open())
      throw new MemdirError('NO_WORKSPACE', 'Open a project first: its team server and repo are its own.')
    await saveAppSettings(base, s)
    if (input.modelApiKey !== undefined) {
      await storeSecret(base, API_KEY, input.modelApiKey, cipher)
      if (input.modelApiKey) secrets.apiKey = input.modelApiKey
      else delete secrets.apiKey
    }
    if (teamFields) await saveTeamValues(input)
    const desktopOnly = Object.keys(input).every((k) => k === 'keepInBackground' || k === 'startAtLogin')
    if (!desktopOnly) await deps.apply()
    const next = await view()
    deps.changed(next)
    return next
  }

  return { view, save }
}

export type SettingsService = ReturnType<typeof createSettingsService>

export function settingsHandlers(
  settings: SettingsService,
): FeatureHandlers<'settings/get' | 'settings/set'> {
  return {
    'settings/get': async () => settings.view(),
    'settings/set': (input) => settings.save(input),
  }
}
