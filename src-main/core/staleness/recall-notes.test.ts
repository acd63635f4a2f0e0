import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gitRepo } from '../../../test/helpers/git-repo.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { buildRecallInjection } from '../recall/inject.js'

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)

describe('the staleness line in recall', () => {
  it('tells the agent a recalled memory names code that changed or is gone since it was saved', async () => {
    const r = gitRepo()
    r.put('src/app.ts', '1\n')
    r.put('src/old.ts', '1\n')
    r.commit('initial', T0)
    const dir = tempDir()
    const path = writeFile(
      join(dir, 'entry.md'),
      '---\nname: Entry\ndescription: where it starts\ntype: project\n---\n\nStarts in src/app.ts, helpers in src/old.ts.\n',
    )
    const fresh = writeFile(
      join(dir, 'plain.md'),
      '---\nname: Plain\ndescription: d\ntype: user\n---\n\nNo code here.\n',
    )
    utimesSync(path, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
    for (let k = 1; k <= 14; k++) {
      r.put('src/app.ts', `${k + 1}\n`)
      r.commit(`change ${k}`, T0 + (1 + k) * DAY)
    }
    r.git(['rm', '-q', 'src/old.ts'])
    r.commit('drop old', T0 + 20 * DAY)
    const [withNote, without] = await buildRecallInjection(
      [
        { path, mtimeMs: T0 + DAY },
        { path: fresh, mtimeMs: Date.now() },
      ],
      T0 + 30 * DAY,
      { projectRoot: r.root },
    )
    expect(withNote).toContain(
      'Note: this memory mentions src/app.ts, changed in 14 commits since this memory was saved; mentions src/old.ts, which no longer exists. Check the code before relying on it.',
    )
    expect(without).not.toContain('Note:')
    // Without the project's folder (or outside git) the text is as before.
    expect((await buildRecallInjection([{ path, mtimeMs: T0 + DAY }], T0 + 30 * DAY))[0]).not.toContain(
      'Note:',
    )
    const notARepo = tempDir()
    expect(
      (
        await buildRecallInjection([{ path, mtimeMs: T0 + DAY }], T0 + 30 * DAY, { projectRoot: notARepo })
      )[0],
    ).not.toContain('Note:')
  })

  it('counts from when the user marked the memory as still true, as Health does', async () => {
    const r = gitRepo()
    r.put('src/db.ts', '1\n')
    r.commit('initial', T0)
    const path = writeFile(
      join(tempDir(), 'db.md'),
      '---\nname: DB\ndescription: the pool\ntype: project\n---\n\nThe pool is made in src/db.ts.\n',
    )
    utimesSync(path, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
    r.git(['mv', 'src/db.ts', 'src/database.ts'])
    r.commit('rename', T0 + 2 * DAY)
    let asked = 0
    const marked = (at: number) => ({
      projectRoot: r.root,
      verifiedTimes: async () => {
        asked++
        return new Map([[path, at]])
      },
    })
    const recall = async (basis: { projectRoot: string }) =>
      (await buildRecallInjection([{ path, mtimeMs: T0 + DAY }], T0 + 30 * DAY, basis))[0]
    // Marked before the rename: the rename still came after.
    expect(await recall(marked(T0 + DAY + 1))).toContain('mentions src/db.ts, which moved to src/database.ts')
    // Marked after it: the user has seen the change and says the memory still holds.
    expect(await recall(marked(T0 + 3 * DAY))).not.toContain('Note:')
    expect(asked).toBe(2)
    // A memory with nothing stale never reads the marks.
    asked = 0
    r.put('src/database.ts', '2\n')
    const fresh = writeFile(
      join(tempDir(), 'fresh.md'),
      '---\nname: F\ndescription: d\ntype: project\n---\n\nSee src/database.ts.\n',
    )
    await buildRecallInjection([{ path: fresh, mtimeMs: Date.now() }], Date.now(), marked(0))
    expect(asked).toBe(0)
  })

  it('checks the paths a memory names inside the repository, however many routes another one lists', async () => {
    const r = gitRepo()
    r.put('src/old.ts', '1\n')
    r.commit('initial', T0)
    const dir = tempDir()
    const routes = Array.from({ length: 12 }, (_, i) => `/api/v1/resource${i}`).join(', ')
    const api = writeFile(
      join(dir, 'api.md'),
      `---\nname: API\ndescription: routes\ntype: reference\n---\n\nRoutes: ${routes}; config in /etc/app/app.yaml.\n`,
    )
    const helper = writeFile(
      join(dir, 'helper.md'),
      `---\nname: Helper\ndescription: helpers\ntype: project\n---\n\nHelpers live in ${join(r.root, 'src/old.ts')}.\n`,
    )
    for (const p of [api, helper]) utimesSync(p, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
    r.git(['rm', '-q', 'src/old.ts'])
    r.commit('drop old', T0 + 2 * DAY)
    const [first, second] = await buildRecallInjection(
      [
        { path: api, mtimeMs: T0 + DAY },
        { path: helper, mtimeMs: T0 + DAY },
      ],
      T0 + 30 * DAY,
      { projectRoot: r.root },
    )
    expect(first).not.toContain('Note:')
    expect(second).toContain(
      `Note: this memory mentions ${join(r.root, 'src/old.ts')}, which no longer exists.`,
    )
  })
})
