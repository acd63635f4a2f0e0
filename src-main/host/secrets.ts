import { readFileSync } from 'node:fs'
import { mkdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProjectContext, SecretValues } from '../core/paths/context.js'
import { writeFileAtomic } from '../core/store/atomic-write.js'
import { getAppDataDir, readAppSettings, saveAppSettings, type AppSettings } from './app-data.js'

export type SecretName = keyof SecretValues
export const SECRET_NAMES: readonly SecretName[] = ['teamToken', 'apiKey']
/** The variable that overrides each secret (and that the CLI reads first). */
export const SECRET_ENV: Record<SecretName, string> = {
  teamToken: 'MEMDIR_TEAM_TOKEN',
  apiKey: 'ANTHROPIC_API_KEY',
}
/** How each secret is named to the user, and on the command line (`memdir secret set team-token`). */
export const SECRET_LABEL: Record<SecretName, string> = { teamToken: 'team token', apiKey: 'API key' }
export const SECRET_FLAG: Record<SecretName, string> = { teamToken: 'team-token', apiKey: 'api-key' }
/** Where a secret lives: encrypted with the OS keychain's key, or (opt-in, or no keychain) a 0600 file. */
export type SecretStorage = 'keychain' | 'file'

/** The OS keychain as Electron's `safeStorage` offers it; the desktop app passes one in. */
export interface SecretCipher {
  available(): boolean
  encrypt(plain: string): Buffer
  decrypt(data: Buffer): string
}

export function secretsDir(ctx: ProjectContext): string {
  return join(getAppDataDir(ctx), 'secrets')
}

function secretFile(ctx: ProjectContext, name: SecretName, storage: SecretStorage): string {
  return join(secretsDir(ctx), storage === 'keychain' ? `${name}.keychain` : name)
}

function readSecretFile(path: string): Buffer | undefined {
  try {
    return readFileSync(path)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
}

/** The marker the settings file keeps in place of each stored secret. */
export function secretMarkers(settings: AppSettings): Partial<Record<SecretName, SecretStorage>> {
  return settings.secrets ?? {}
}

/** Secrets this process can read by itself: the 0600 files, and (with a cipher) the keychain ones. */
export function readStoredSecrets(
  ctx: ProjectContext,
  cipher?: SecretCipher,
  settings: AppSettings = readAppSettings(ctx).settings,
): SecretValues {
  const markers = secretMarkers(settings)
  const out: SecretValues = {}
  for (const name of SECRET_NAMES) {
    const storage = markers[name]
    if (!storage || (storage === 'keychain' && !cipher?.available())) continue
    const data = readSecretFile(secretFile(ctx, name, storage))
    if (!data) continue
    out[name] = storage === 'keychain' ? cipher!.decrypt(data) : data.toString('utf8')
  }
  return out
}

/**
 * Stores (or with an empty value, forgets) one secret: encrypted with the keychain when a cipher is
 * available, else in a file only the user can read. The settings file keeps only the marker;
 * a plain value it held is removed. Returns where the secret now lives.
 */
export async function storeSecret(
  ctx: ProjectContext,
  name: SecretName,
  value: string,
  cipher?: SecretCipher,
): Promise<SecretStorage | undefined> {
  let storage: SecretStorage | undefined
  if (value) {
    // The secret is written before the settings stop naming the old place: a crash between loses nothing.
    storage = cipher?.available() ? 'keychain' : 'file'
    await mkdir(secretsDir(ctx), { recursive: true, mode: 0o700 })
    const data = storage === 'keychain' ? cipher!.encrypt(value) : value
    await writeFileAtomic(secretFile(ctx, name, storage), data, { mode: 0o600 })
  }
  const settings = { ...readAppSettings(ctx).settings }
  const markers = { ...secretMarkers(settings) }
  delete settings[name]
  delete markers[name]
  if (storage) markers[name] = storage
  if (Object.keys(markers).length) settings.secrets = markers
  else delete settings.secrets
  await saveAppSettings(ctx, settings)
  for (const other of ['keychain', 'file'] as const)
    if (other !== storage) await unlink(secretFile(ctx, name, other)).catch(() => {})
  return storage
}

/**
 * First start of the desktop app: plain secrets an older Memdir left in the settings file move to
 * the keychain (or a 0600 file where there is none) and leave the file. Returns what moved.
 */
export async function migratePlainSecrets(ctx: ProjectContext, cipher: SecretCipher): Promise<SecretName[]> {
  const loaded = readAppSettings(ctx)
  if (loaded.problem) return [] // a broken file is reported elsewhere and never rewritten here
  const moved: SecretName[] = []
  for (const name of SECRET_NAMES) {
    const plain = loaded.settings[name]
    if (typeof plain !== 'string' || !plain) continue
    await storeSecret(ctx, name, plain, cipher)
    moved.push(name)
  }
  return moved
}
