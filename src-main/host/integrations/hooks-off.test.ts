import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { hooksOff, hooksOffText } from './hooks-off.js'

type Files = { managed?: object | string; user?: object; project?: object; local?: object | string }

function world(files: Files) {
  const sb = sandbox()
  const ctx = sb.ctx()
  const paths = {
    managed: ctx.policySettingsPath!,
    user: join(sb.home, '.claude', 'settings.json'),
    project: join(sb.project, '.claude', 'settings.json'),
    local: join(sb.project, '.claude', 'settings.local.json'),
  }
  for (const [k, v] of Object.entries(files))
    writeFile(paths[k as keyof Files], typeof v === 'string' ? v : JSON.stringify(v))
  return { off: () => hooksOff(ctx), paths }
}

describe("whether Claude Code's settings turn hooks off", () => {
  it('the most specific file that sets disableAllHooks decides, as the real clients merge them', async () => {
    // Each case as 2.1.88 and 2.1.337 ran it (a project hook ran, or did not).
    const on = { disableAllHooks: true }
    const off = { disableAllHooks: false }
    const cases: [Files, keyof Files | undefined][] = [
      [{}, undefined],
      [{ user: on }, 'user'],
      [{ project: on }, 'project'],
      [{ local: on }, 'local'],
      [{ user: on, local: off }, undefined],
      [{ project: on, local: off }, undefined],
      [{ local: on, user: off }, 'local'],
      // Managed settings come before every other file.
      [{ managed: on, local: off }, 'managed'],
      [{ managed: off, user: on }, undefined],
    ]
    for (const [files, by] of cases) {
      const w = world(files)
      const got = await w.off()
      expect(got, JSON.stringify(files)).toEqual(
        by ? { path: w.paths[by], setting: 'disableAllHooks' } : undefined,
      )
    }
  })

  it('managed settings that allow only their own hooks turn ours off', async () => {
    const w = world({ managed: { allowManagedHooksOnly: true }, local: { disableAllHooks: false } })
    const got = await w.off()
    expect(got).toEqual({ path: w.paths.managed, setting: 'allowManagedHooksOnly' })
    expect(hooksOffText(got!)).toMatch(/only the hooks of its managed settings/)
  })

  it('a file that is not a JSON object is skipped, as the client skips it', async () => {
    const w = world({ local: '{ "disableAllHooks": true, ', user: { disableAllHooks: true } })
    expect(await w.off()).toEqual({ path: w.paths.user, setting: 'disableAllHooks' })
    expect(await world({ managed: '[true]', project: ['x'] as unknown as object }).off()).toBeUndefined()
  })
})
