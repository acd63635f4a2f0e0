import { existsSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { describe, expect, it } from 'vitest'
import { tempDir } from './helpers/temp-env.js'

const require = createRequire(import.meta.url)
const afterPack = require('../scripts/fuses.cjs') as ((ctx: unknown) => Promise<void>) & {
  releaseFuses: () => Record<string, boolean>
  binaryPath: (dir: string, platform: string, name: string) => string
}

// Electron's fuse wire: this sentinel, the wire version (1), its length, then one byte per fuse
// ('0' off, '1' on) — see @electron/fuses. A packaged Electron binary holds exactly this.
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'

describe('release fuses', () => {
  it('turn off RunAsNode, NODE_OPTIONS and --inspect; load only from an integrity-checked asar; encrypt cookies', () => {
    const f = afterPack.releaseFuses()
    expect(f).toEqual({
      RunAsNode: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      EnableCookieEncryption: true,
      GrantFileProtocolExtraPrivileges: false,
    })
    for (const name of Object.keys(f))
      expect(FuseV1Options[name as keyof typeof FuseV1Options]).toBeTypeOf('number')
  })

  it('the afterPack hook flips them in a binary with a fuse wire, and they read back', async () => {
    const dir = tempDir()
    const bin = afterPack.binaryPath(dir, 'linux', 'Memdir')
    // Every fuse in Electron's default state (RunAsNode, cookie encryption off… as shipped).
    const defaults = '10110001'
    writeFileSync(
      bin,
      Buffer.concat([
        Buffer.alloc(64, 0x7f),
        Buffer.from(SENTINEL),
        Buffer.from([1, 8]),
        Buffer.from(defaults),
        Buffer.alloc(64),
      ]),
    )
    await afterPack({
      electronPlatformName: 'linux',
      appOutDir: dir,
      packager: { appInfo: { productFilename: 'Memdir' } },
    })
    const wire = await getCurrentFuseWire(bin)
    const state = (o: number) => String.fromCharCode(wire[o as keyof typeof wire] as unknown as number)
    expect(state(FuseV1Options.RunAsNode)).toBe('0')
    expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe('0')
    expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe('0')
    expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe('1')
    expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe('1')
    expect(state(FuseV1Options.EnableCookieEncryption)).toBe('1')
  })

  it.skipIf(!existsSync(join('dist', 'linux-unpacked', 'memdir')))(
    'a packaged binary built here has them set',
    async () => {
      const wire = await getCurrentFuseWire(join('dist', 'linux-unpacked', 'memdir'))
      expect(String.fromCharCode(wire[FuseV1Options.RunAsNode] as unknown as number)).toBe('0')
    },
  )
})
