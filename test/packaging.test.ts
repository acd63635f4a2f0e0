import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & {
  afterPack: string
  files: string[]
}

/** electron-builder's own configuration check (its JSON schema), as `electron-builder` runs it. */
async function validate(c: unknown): Promise<void> {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    validateConfiguration: (c: unknown, log: { isEnabled: boolean; add: () => void }) => Promise<void>
  }
  await validateConfiguration(c, { isEnabled: false, add: () => {} })
}

const pngSize = (file: string) => {
  const b = readFileSync(file)
  return [b.readUInt32BE(16), b.readUInt32BE(20)]
}

describe('desktop packaging config', () => {
  it("passes electron-builder's schema, and a broken one does not", async () => {
    await expect(validate(config)).resolves.toBeUndefined()
    await expect(validate({ ...config, nsis: { oneClick: 'maybe' } })).rejects.toThrow(
      /Invalid configuration/,
    )
  })

  it('targets AppImage + deb, a universal dmg and NSIS, with icons in every size', () => {
    expect(config).toMatchObject({
      appId: 'dev.memdir.app',
      productName: 'Memdir',
      linux: { target: ['AppImage', 'deb'] },
      mac: { target: [{ target: 'dmg', arch: ['universal'] }] },
      win: { target: ['nsis'] },
      asar: true,
    })
    for (const s of [16, 32, 48, 64, 128, 256, 512, 1024])
      expect(pngSize(join(ROOT, 'resources', 'icons', `${s}x${s}.png`))).toEqual([s, s])
    expect(pngSize(join(ROOT, 'resources', 'icons', 'trayTemplate.png'))).toEqual([16, 16])
  })

  it('flips the fuses after packing and leaves the native team-server addon out', () => {
    expect(existsSync(join(ROOT, config.afterPack))).toBe(true)
    expect(config.files).toContain('!node_modules/better-sqlite3{,/**}')
    expect(config.files.some((f) => f.startsWith('!node_modules/pg'))).toBe(true)
    expect(config.npmRebuild).toBe(false)
  })
})
