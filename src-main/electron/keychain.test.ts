import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { API_KEY, readStoredSecrets, secretsDir, storeSecret } from '../host/settings/secrets.js'
import { secretsWorld } from '../../test/helpers/secrets.js'
import { keychainCipher } from './keychain.js'

describe('safeStorage as the keychain', () => {
  it('counts Linux basic_text (a hard-coded key) as no keychain: the secret goes to a 0600 file', async () => {
    const { ctx, settings, mode } = secretsWorld()
    const basicText = keychainCipher(
      {
        isEncryptionAvailable: () => true,
        getSelectedStorageBackend: () => 'basic_text',
        encryptString: () => Buffer.from('x'),
        decryptString: () => 'x',
      },
      'linux',
    )
    expect(basicText.available()).toBe(false)
    expect(await storeSecret(ctx, API_KEY, 'sk-ant-plainfile', basicText)).toBe('file')
    expect(settings()).toEqual({ secrets: { apiKey: 'file' } })
    expect(mode(join(secretsDir(ctx), 'apiKey'))).toBe(0o600)
    expect(readStoredSecrets(ctx)).toEqual({ apiKey: 'sk-ant-plainfile' })
  })

  it('uses the OS backend where there is one', () => {
    const real = keychainCipher(
      {
        isEncryptionAvailable: () => true,
        getSelectedStorageBackend: () => 'gnome_libsecret',
        encryptString: (s) => Buffer.from(s),
        decryptString: (b) => b.toString(),
      },
      'linux',
    )
    expect(real.available()).toBe(true)
    const mac = keychainCipher(
      {
        isEncryptionAvailable: () => true,
        encryptString: (s) => Buffer.from(s),
        decryptString: (b) => b.toString(),
      },
      'darwin',
    )
    expect(mac.available()).toBe(true)
  })
})
