import { chmodSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { ensurePrivateDataDir } from './data-dir.js'

const modeOf = (p: string) => statSync(p).mode & 0o777

describe.skipIf(process.platform === 'win32')('ensurePrivateDataDir', () => {
  it('creates the data dir for the user only, and narrows one left open at its default place', () => {
    const fresh = join(tempDir(), 'home', '.memdir')
    ensurePrivateDataDir(fresh, true)
    expect(modeOf(fresh)).toBe(0o700)
    const open = join(tempDir(), '.memdir')
    mkdirSync(open)
    chmodSync(open, 0o755)
    ensurePrivateDataDir(open, true)
    expect(modeOf(open)).toBe(0o700)
  })

  it('leaves the mode of a data dir the user chose elsewhere (MEMDIR_DATA_DIR) as it is', () => {
    const chosen = tempDir()
    chmodSync(chosen, 0o750)
    ensurePrivateDataDir(chosen, false)
    expect(modeOf(chosen)).toBe(0o750)
    const made = join(chosen, 'new-data')
    ensurePrivateDataDir(made, false)
    expect(modeOf(made)).toBe(0o700)
  })
})
