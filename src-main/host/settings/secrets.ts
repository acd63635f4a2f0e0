import { readFileSync } from 'node:fs'
import { mkdir, rename, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { isMissing } from '../../../src-shared/errors.js'
import type { ProjectContext, SecretValues } from '../../core/paths/context.js'
import { sha256Hex, writeFileAtomic } from '../../core/store/atomic-write.js'
import { getAppDataDir, readAppSettings, saveAppSettings, type AppSettings } from './app-data.js'

/** The two kinds of secret: the model API key, and a team token (one per server and repo). */
export type SecretKind = 'apiKey' | 'teamToken'
export const SECRET_KINDS: readonly SecretKind[] = ['teamToken', 'apiKey']
/** The variable that overrides each kind (and that the CLI reads first). */
export const SECRET_ENV: Record<SecretKind, string> = {
  teamToken: 'MEMDIR_TEAM_TOKEN',
  apiKey: 'ANTHROPIC_API_KEY',
}
/** How each kind is named to the user, and on the command line (`memdir secret set team-token`). */
export const SECRET_LABEL: Record<SecretKind, string> = { teamToken: 'team token', apiKey: 'API key' }
export const SECRET_FLAG: Record<SecretKind, string> = { teamToken: 'team-token', apiKey: 'api-key' }
/** Where a secret lives: encrypted with the OS keychain's key, or (opt-in, or no keychain) a 0600 file. */
export type SecretStorage = 'keychain' | 'file'

/**
 * One secret: the API key, or the team token of the server and repo `pair` names
 * (`<server URL>#<owner/repo>`, see teamPairKey).
 */
export type SecretId = { kind: 'apiKey' } | { kind: 'teamToken'; pair: string }
export const API_KEY: SecretId = { kind: 'apiKey' }
export const teamTokenId = (pair: string): SecretId => ({ kind: 'teamToken', pair })

/** The secrets this host holds, read once at start and kept current as they are saved. */
export interface HeldSecrets {
  apiKey?: string
  teamTokens: Record<string, string>
}

/** The OS keychain as Electron's `safeStorage` offers it; the desktop app passes one in. */
export interface SecretCipher {
  available(): boolean
  encrypt(plain: string): Buffer
  decrypt(data: Buffer): string
}

export function secretsDir(ctx: ProjectContext): string {
  return join(getAppDataDir(ctx), 'secrets')
}

function secretBaseName(id: SecretId): string {
  return id.kind === 'apiKey' ? 'apiKey' : `team-token-${sha256Hex(id.pair).slice(0, 16)}`
}

function secretFile(ctx: ProjectContext, id: SecretId | 'legacyTeamToken', storage: SecretStorage): string {
  const base = id === 'legacyTeamToken' ? 'teamToken' : secretBaseName(id)
  return join(secretsDir(ctx), storage === 'keychain' ? `${base}.keychain` : base)
}

function readSecretFile(path: string): Buffer | undefined {
  try {
    return readFileSync(path)
  } catch (e) {
    if (isMissing(e)) return undefined
    throw e
  }
}

/** Where the settings file says a secret is kept (undefined: not kept outside it). */
export function secretStorageOf(settings: AppSettings, id: SecretId): SecretStorage | undefined {
  const markers = settings.secrets ?? {}
  return id.kind === 'apiKey' ? markers.apiKey : markers.teamTokens?.[id.pair]
}

/** Every secret the settings file says is kept outside it. */
export function storedSecretIds(settings: AppSettings): SecretId[] {
  const markers = settings.secrets ?? {}
  return [
    ...(markers.apiKey ? [API_KEY] : []),
    ...Object.entries(markers.teamTokens ?? {})
      .filter(([, where]) => where)
      .map(([pair]) => teamTokenId(pair)),
  ]
}

function decode(data: Buffer, storage: SecretStorage, cipher?: SecretCipher): string {
  return storage === 'keychain' ? cipher!.decrypt(data) : data.toString('utf8')
}

/** One secret this process can read by itself (a 0600 file, or the keychain with a cipher). */
export function readStoredSecret(
  ctx: ProjectContext,
  id: SecretId,
  cipher?: SecretCipher,
  settings: AppSettings = readAppSettings(ctx).settings,
): string | undefined {
  const storage = secretStorageOf(settings, id)
  if (!storage || (storage === 'keychain' && !cipher?.available())) return undefined
  const data = readSecretFile(secretFile(ctx, id, storage))
  return data ? decode(data, storage, cipher) : undefined
}

/** Every secret this process can read by itself: the 0600 files, and (with a cipher) the keychain ones. */
export function readStoredSecrets(
  ctx: ProjectContext,
  cipher?: SecretCipher,
  settings: AppSettings = readAppSettings(ctx).settings,
): SecretValues {
  const out: { apiKey?: string; teamTokens?: Record<string, string> } = {}
  for (const id of storedSecretIds(settings)) {
    const value = readStoredSecret(ctx, id, cipher, settings)
    if (value === undefined) continue
    if (id.kind === 'apiKey') out.apiKey = value
    else out.teamTokens = { ...out.teamTokens, [id.pair]: value }
  }
  return out
}

/** The settings with `id`'s marker set to `storage` (undefined: removed). */
function withMarker(settings: AppSettings, id: SecretId, storage: SecretStorage | undefined): AppSettings {
  const next = { ...settings }
  const markers = { ...(next.secrets ?? {}) }
  if (id.kind === 'apiKey') {
    delete next.apiKey
    if (storage) markers.apiKey = storage
    else delete markers.apiKey
  } else {
    const tokens = { ...(markers.teamTokens ?? {}) }
    if (storage) tokens[id.pair] = storage
    else delete tokens[id.pair]
    if (Object.keys(tokens).length) markers.teamTokens = tokens
    else delete markers.teamTokens
  }
  if (Object.keys(markers).length) next.secrets = markers
  else delete next.secrets
  return next
}

/**
 * Stores (or with an empty value, forgets) one secret: encrypted with the keychain when a cipher is
 * available, else in a file only the user can read. The settings file keeps only the marker;
 * a plain value it held is removed. Returns where the secret now lives.
 */
export async function storeSecret(
  ctx: ProjectContext,
  id: SecretId,
  value: string,
  cipher?: SecretCipher,
): Promise<SecretStorage | undefined> {
  let storage: SecretStorage | undefined
  if (value) {
    // The secret is written before the settings stop naming the old place: a crash between loses nothing.
    storage = cipher?.available() ? 'keychain' : 'file'
    await mkdir(secretsDir(ctx), { recursive: true, mode: 0o700 })
    const data = storage === 'keychain' ? cipher!.encrypt(value) : value
    await writeFileAtomic(secretFile(ctx, id, storage), data, { mode: 0o600 })
  }
  await saveAppSettings(ctx, withMarker(readAppSettings(ctx).settings, id, storage))
  for (const other of ['keychain', 'file'] as const)
    if (other !== storage) await unlink(secretFile(ctx, id, other)).catch(ignoreMissing)
  return storage
}

const ignoreMissing = (e: unknown) => {
  if (!isMissing(e)) throw e
}

/**
 * The one team token an older Memdir kept (plain in the settings file, or as `teamToken` in the
 * secrets folder) becomes the token of `pair`: the server and repo it was used with.
 */
export async function adoptLegacyTeamToken(
  ctx: ProjectContext,
  pair: string,
  cipher?: SecretCipher,
): Promise<boolean> {
  const { settings } = readAppSettings(ctx)
  const id = teamTokenId(pair)
  if (typeof settings.teamToken === 'string' && settings.teamToken) {
    await storeSecret(ctx, id, settings.teamToken, cipher)
    const after = { ...readAppSettings(ctx).settings }
    delete after.teamToken
    await saveAppSettings(ctx, after)
    return true
  }
  const storage = settings.secrets?.teamToken
  if (!storage) return false
  // The file moves as it is: a keychain ciphertext needs no keychain to be renamed.
  await rename(secretFile(ctx, 'legacyTeamToken', storage), secretFile(ctx, id, storage)).catch(ignoreMissing)
  const after = withMarker(readAppSettings(ctx).settings, id, storage)
  const markers = { ...(after.secrets ?? {}) }
  delete markers.teamToken
  if (Object.keys(markers).length) after.secrets = markers
  else delete after.secrets
  await saveAppSettings(ctx, after)
  return true
}

/**
 * First start of the desktop app: plain secrets an older Memdir saved in the settings file move to
 * the keychain (or a 0600 file where there is none) and leave the file. Returns what moved. A plain
 * team token moves to the slot an older Memdir kept its one token in, until the team settings move
 * to their project and it becomes the token of that project's server and repo.
 */
export async function migratePlainSecrets(ctx: ProjectContext, cipher: SecretCipher): Promise<SecretKind[]> {
  const loaded = readAppSettings(ctx)
  if (loaded.problem) return [] // a broken file is reported elsewhere and never rewritten here
  const moved: SecretKind[] = []
  const token = loaded.settings.teamToken
  if (typeof token === 'string' && token) {
    const storage: SecretStorage = cipher.available() ? 'keychain' : 'file'
    await mkdir(secretsDir(ctx), { recursive: true, mode: 0o700 })
    await writeFileAtomic(
      secretFile(ctx, 'legacyTeamToken', storage),
      storage === 'keychain' ? cipher.encrypt(token) : token,
      { mode: 0o600 },
    )
    const next = { ...readAppSettings(ctx).settings }
    delete next.teamToken
    next.secrets = { ...next.secrets, teamToken: storage }
    await saveAppSettings(ctx, next)
    moved.push('teamToken')
  }
  const plain = loaded.settings.apiKey
  if (typeof plain === 'string' && plain) {
    await storeSecret(ctx, API_KEY, plain, cipher)
    moved.push('apiKey')
  }
  return moved
}
