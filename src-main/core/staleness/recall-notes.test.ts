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
      r.root,
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
      (await buildRecallInjection([{ path, mtimeMs: T0 + DAY }], T0 + 30 * DAY, notARepo))[0],
    ).not.toContain('Note:')
  })
})
