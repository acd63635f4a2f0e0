import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { settingsFilePath } from '../../src-main/host/settings/app-data.js'
import { createProjectContext } from '../../src-main/host/settings/project.js'
import type { SecretCipher } from '../../src-main/host/settings/secrets.js'
import { sandbox, tempDir } from './temp-env.js'

/** Stubbed crypto with the keychain's contract: reversible, never the plain text at rest. */
export function stubCipher(available = true): SecretCipher & { calls: number } {
  const c = {
    calls: 0,
    available: () => available,
    encrypt: (plain: string) => {
      c.calls++
      return Buffer.concat([Buffer.from('enc:'), Buffer.from(plain).map((b) => b ^ 0x33)])
    },
    decrypt: (data: Buffer) => {
      if (!data.subarray(0, 4).equals(Buffer.from('enc:'))) throw new Error('not ours')
      return Buffer.from(data.subarray(4).map((b) => b ^ 0x33)).toString()
    },
  }
  return c
}

/** A sandbox with its own data dir, its project context, and readers for the settings file and modes. */
export function secretsWorld() {
  const sb = sandbox({ MEMDIR_DATA_DIR: join(tempDir(), 'data') })
  const ctx = createProjectContext({ cwd: sb.project, env: sb.env })
  const settings = () => JSON.parse(readFileSync(settingsFilePath(ctx), 'utf8')) as Record<string, unknown>
  const mode = (p: string) => statSync(p).mode & 0o777
  return { sb, ctx, settings, mode }
}
