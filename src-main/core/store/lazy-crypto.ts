import type * as Crypto from 'node:crypto'

/**
 * node:crypto, loaded on first use: loading it costs ~5 ms, which a CLI start that never hashes
 * (`memdir path`, most hook runs) should not pay.
 */
export function nodeCrypto(): typeof Crypto {
  return process.getBuiltinModule('node:crypto')
}
