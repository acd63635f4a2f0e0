import type { SecretCipher } from '../host/settings/secrets.js'

/** The part of Electron's `safeStorage` the keychain needs (a stub stands in for it in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean
  encryptString(plain: string): Buffer
  decryptString(data: Buffer): string
  getSelectedStorageBackend?: () => string
}

/**
 * The OS keychain through `safeStorage`. On Linux without a secret service Electron falls back to
 * `basic_text`, a hard-coded key: that is no protection, so it counts as no keychain (secrets then
 * go to a file only the user can read, and Settings says so).
 */
export function keychainCipher(safeStorage: SafeStorageLike, platform = process.platform): SecretCipher {
  return {
    available: () =>
      safeStorage.isEncryptionAvailable() &&
      !(platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text'),
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(data),
  }
}
