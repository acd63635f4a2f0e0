import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { secretsWorld, stubCipher } from '../../test/helpers/secrets.js'
import { tempDir, writeFile } from '../../test/helpers/temp-env.js'
import { settingsFilePath } from './app-data.js'
import { createHost } from './host.js'
import { createProjectContext } from './project.js'
import { migratePlainSecrets, readStoredSecrets, secretsDir, storeSecret } from './secrets.js'

describe('secrets outside the settings file', () => {
  it('the keychain holds the ciphertext (0600), the settings file only a marker; clearing forgets it', async () => {
    const { ctx, settings, mode } = secretsWorld()
    const cipher = stubCipher()
    expect(await storeSecret(ctx, 'teamToken', 'tmt_secret_value', cipher)).toBe('keychain')
    expect(settings()).toEqual({ secrets: { teamToken: 'keychain' } })
    const file = join(secretsDir(ctx), 'teamToken.keychain')
    expect(readFileSync(file, 'utf8')).not.toContain('tmt_secret_value')
    expect(mode(file)).toBe(0o600)
    expect(mode(secretsDir(ctx))).toBe(0o700)
    expect(readStoredSecrets(ctx, cipher)).toEqual({ teamToken: 'tmt_secret_value' })
    // Without the keychain (the CLI) the value is not readable from the file.
    expect(readStoredSecrets(ctx)).toEqual({})
    await storeSecret(ctx, 'teamToken', '', cipher)
    expect(existsSync(file)).toBe(false)
    expect(settings()).toEqual({})
  })

  it('migrates plain values an older Memdir saved, keeping every other setting; a broken file is left alone', async () => {
    const { sb, ctx, settings } = secretsWorld()
    writeFile(
      settingsFilePath(ctx),
      JSON.stringify({
        teamUrl: 'https://team.example',
        teamToken: 'tmt_old',
        apiKey: 'sk-ant-old',
        reviewMode: true,
      }),
    )
    const cipher = stubCipher()
    expect(await migratePlainSecrets(ctx, cipher)).toEqual(['teamToken', 'apiKey'])
    const text = readFileSync(settingsFilePath(ctx), 'utf8')
    expect(text).not.toContain('tmt_old')
    expect(text).not.toContain('sk-ant-old')
    expect(settings()).toEqual({
      teamUrl: 'https://team.example',
      reviewMode: true,
      secrets: { teamToken: 'keychain', apiKey: 'keychain' },
    })
    expect(readStoredSecrets(ctx, cipher)).toEqual({ teamToken: 'tmt_old', apiKey: 'sk-ant-old' })
    expect(await migratePlainSecrets(ctx, cipher)).toEqual([]) // once only

    const other = createProjectContext({ cwd: sb.project, env: { ...sb.env, MEMDIR_DATA_DIR: tempDir() } })
    writeFile(settingsFilePath(other), '{"teamToken": "tmt_x", broken')
    expect(await migratePlainSecrets(other, cipher)).toEqual([])
    expect(readFileSync(settingsFilePath(other), 'utf8')).toBe('{"teamToken": "tmt_x", broken')
  })

  it('the app migrates on start, shows where secrets live, and saves new ones to the keychain', async () => {
    const { sb, ctx, settings } = secretsWorld()
    writeFile(settingsFilePath(ctx), JSON.stringify({ teamToken: 'tmt_plain' }))
    const host = await createHost({
      env: sb.env,
      projectRoot: sb.project,
      secretCipher: stubCipher(),
      agentSocket: false,
    })
    try {
      expect(settings()).toEqual({ secrets: { teamToken: 'keychain' } })
      const view = await host.call('settings/get', undefined)
      expect(view).toMatchObject({
        ok: true,
        value: { teamTokenSet: true, secretStorage: { teamToken: 'keychain', keychain: true } },
      })
      await host.call('settings/set', { modelApiKey: 'sk-ant-new' })
      expect(settings()).toEqual({ secrets: { teamToken: 'keychain', apiKey: 'keychain' } })
      expect(readFileSync(settingsFilePath(ctx), 'utf8')).not.toContain('sk-ant-new')
      const activity = await host.call('activity/list', undefined)
      expect(JSON.stringify(activity)).toContain('Moved the team token to the OS keychain')
    } finally {
      await host.close()
    }
  })
})
