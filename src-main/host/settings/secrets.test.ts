import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { secretsWorld, stubCipher } from '../../../test/helpers/secrets.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { settingsFilePath } from './app-data.js'
import { createHost } from '../app/host.js'
import { createProjectContext } from './project.js'
import { migratePlainSecrets, readStoredSecrets, secretsDir, storeSecret, teamTokenId } from './secrets.js'
import { teamPairKey } from './project-values.js'

const PAIR = teamPairKey('https://team.example/', 'acme/shop')

describe('secrets outside the settings file', () => {
  it('the keychain holds the ciphertext (0600), the settings file only a marker; clearing forgets it', async () => {
    const { ctx, settings, mode } = secretsWorld()
    const cipher = stubCipher()
    expect(PAIR).toBe('https://team.example#acme/shop')
    expect(await storeSecret(ctx, teamTokenId(PAIR), 'tmt_secret_value', cipher)).toBe('keychain')
    expect(settings()).toEqual({ secrets: { teamTokens: { [PAIR]: 'keychain' } } })
    const [file] = (await import('node:fs')).readdirSync(secretsDir(ctx)).map((n) => join(secretsDir(ctx), n))
    expect(file).toMatch(/team-token-[0-9a-f]{16}\.keychain$/)
    expect(readFileSync(file!, 'utf8')).not.toContain('tmt_secret_value')
    expect(mode(file!)).toBe(0o600)
    expect(mode(secretsDir(ctx))).toBe(0o700)
    expect(readStoredSecrets(ctx, cipher)).toEqual({ teamTokens: { [PAIR]: 'tmt_secret_value' } })
    // Without the keychain (the CLI) the value is not readable from the file.
    expect(readStoredSecrets(ctx)).toEqual({})
    await storeSecret(ctx, teamTokenId(PAIR), '', cipher)
    expect(existsSync(file!)).toBe(false)
    expect(settings()).toEqual({})
  })

  it('keeps one token per server and repo: another repo on the same server has its own', async () => {
    const { ctx } = secretsWorld()
    const other = teamTokenId(teamPairKey('https://team.example', 'acme/infra'))
    await storeSecret(ctx, teamTokenId(PAIR), 'tmt_shop')
    await storeSecret(ctx, other, 'tmt_infra')
    expect(readStoredSecrets(ctx)).toEqual({
      teamTokens: { [PAIR]: 'tmt_shop', 'https://team.example#acme/infra': 'tmt_infra' },
    })
  })

  it('migrates a plain API key an older Memdir saved, keeping every other setting; a broken file is left alone', async () => {
    const { sb, ctx, settings } = secretsWorld()
    writeFile(settingsFilePath(ctx), JSON.stringify({ apiKey: 'sk-ant-old', reviewMode: true }))
    const cipher = stubCipher()
    expect(await migratePlainSecrets(ctx, cipher)).toEqual(['apiKey'])
    const text = readFileSync(settingsFilePath(ctx), 'utf8')
    expect(text).not.toContain('sk-ant-old')
    expect(settings()).toEqual({ reviewMode: true, secrets: { apiKey: 'keychain' } })
    expect(readStoredSecrets(ctx, cipher)).toEqual({ apiKey: 'sk-ant-old' })
    expect(await migratePlainSecrets(ctx, cipher)).toEqual([]) // once only

    const other = createProjectContext({ cwd: sb.project, env: { ...sb.env, MEMDIR_DATA_DIR: tempDir() } })
    writeFile(settingsFilePath(other), '{"apiKey": "sk-x", broken')
    expect(await migratePlainSecrets(other, cipher)).toEqual([])
    expect(readFileSync(settingsFilePath(other), 'utf8')).toBe('{"apiKey": "sk-x", broken')
  })

  it('the app moves a plain team token to the project it was saved for, shows where it lives, and saves new ones to the keychain', async () => {
    const { sb, ctx, settings } = secretsWorld()
    writeFile(
      settingsFilePath(ctx),
      JSON.stringify({ teamUrl: 'https://team.example', teamRepo: 'acme/shop', teamToken: 'tmt_plain' }),
    )
    const host = await createHost({
      env: { ...sb.env, MEMDIR_TEAM_MEMORY: '1' },
      projectRoot: sb.project,
      secretCipher: stubCipher(),
      agentSocket: false,
    })
    try {
      const memoryDir = (await host.call('workspace/current', undefined)) as {
        ok: true
        value: { memoryDir: string }
      }
      expect(settings()).toEqual({
        projects: { [memoryDir.value.memoryDir]: { teamUrl: 'https://team.example', teamRepo: 'acme/shop' } },
        secrets: { teamTokens: { [PAIR]: 'keychain' } },
      })
      const view = await host.call('settings/get', undefined)
      expect(view).toMatchObject({
        ok: true,
        value: { teamTokenSet: true, secretStorage: { teamToken: 'keychain', keychain: true } },
      })
      await host.call('settings/set', { modelApiKey: 'sk-ant-new' })
      expect(settings()).toMatchObject({
        secrets: { teamTokens: { [PAIR]: 'keychain' }, apiKey: 'keychain' },
      })
      expect(readFileSync(settingsFilePath(ctx), 'utf8')).not.toContain('sk-ant-new')
      expect(readStoredSecrets(ctx, stubCipher())).toMatchObject({ apiKey: 'sk-ant-new' })
    } finally {
      await host.close()
    }
  })
})
