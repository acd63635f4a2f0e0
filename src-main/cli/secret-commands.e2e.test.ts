import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliSession } from '../../test/helpers/cli.js'
import { secretsWorld, stubCipher } from '../../test/helpers/secrets.js'
import { startTeamServer } from '../../test/helpers/team-server.js'
import { writeFile } from '../../test/helpers/temp-env.js'
import { withCliSecrets } from '../host/integrations/cli-secrets.js'
import { createHost } from '../host/app/host.js'
import { createProjectContext } from '../host/settings/project.js'
import { storeSecret, teamTokenId } from '../host/settings/secrets.js'
import { teamPairKey } from '../host/settings/project-values.js'
import { resolveTeamTarget } from '../host/settings/team-target.js'
import { runCli } from './run.js'

describe('the CLI finds the secrets the desktop app keeps', () => {
  it('asks the running app over its socket; says what to do when the app is not running; a 0600 copy works alone', async () => {
    const server = await startTeamServer()
    const token = await server.token('acme/shop')
    const { sb, ctx } = secretsWorld()
    const env = {
      ...sb.env,
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: server.url,
      MEMDIR_TEAM_REPO: 'acme/shop',
    }
    writeFile(join(sb.project, '.keep'), '')
    const cipher = stubCipher()
    await storeSecret(ctx, teamTokenId(teamPairKey(server.url, 'acme/shop')), token, cipher)

    const host = await createHost({ env, projectRoot: sb.project, secretCipher: cipher })
    try {
      const status = cliSession(env, sb.project)
      expect(await status.run(['secret', 'status', '--json'])).toBe(0)
      expect(JSON.parse(status.io.stdout)).toContainEqual({
        name: 'team-token',
        for: teamPairKey(server.url, 'acme/shop'),
        storedIn: 'keychain',
        usableHere: true,
      })
      const sync = cliSession(env, sb.project)
      expect(await sync.run(['sync', '--json'])).toBe(0)
      expect(JSON.parse(sync.io.stdout)).toMatchObject({ repo: 'acme/shop' })
    } finally {
      await host.close()
    }

    // No app: the command says where the token is and what to do.
    const offline = cliSession(env, sb.project)
    expect(await offline.run(['sync'])).toBe(1)
    expect(offline.io.stderr).toContain(
      "the team token is in the desktop app's keychain and the app is not running",
    )
    expect(offline.io.stderr).toContain('memdir secret set team-token')

    // The environment wins, with or without the app.
    const fromEnv = await withCliSecrets(
      createProjectContext({ cwd: sb.project, env: { ...env, MEMDIR_TEAM_TOKEN: token } }),
    )
    expect(resolveTeamTarget(fromEnv)).toMatchObject({ token, tokenFrom: 'env' })

    // The opt-in 0600 copy for the command line: read from stdin, never an argument.
    let out = ''
    const code = await runCli(['secret', 'set', 'team-token'], {
      stdout: (t) => (out += t),
      stderr: (t) => (out += t),
      env,
      cwd: sb.project,
      stdin: async () => `${token}\n`,
    })
    expect(code).toBe(0)
    expect(out).toContain('readable by you only')
    const alone = cliSession(env, sb.project)
    expect(await alone.run(['sync'])).toBe(0)
    expect(alone.io.stdout).toContain('acme/shop @ ')
    const status = cliSession(env, sb.project)
    expect(await status.run(['secret', 'status'])).toBe(0)
    expect(status.io.stdout).toMatch(/team-token \(http:\/\/127\.0\.0\.1:\d+ acme\/shop\): in a 0600 file/)
  })

  it('a secret set without stdin, or an unknown name, is a usage error', async () => {
    const { sb } = secretsWorld()
    const r = cliSession(sb.env, sb.project)
    expect(await r.run(['secret', 'set', 'password'])).toBe(2)
    expect(await r.run(['secret', 'frobnicate'])).toBe(2)
  })
})
