import { existsSync, readFileSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { createHost } from './host.js'

const mem = (n: string) => `---\nname: ${n}\ndescription: about ${n}\ntype: project\n---\n\nbody of ${n}\n`

describe('the offline ranker at opening', () => {
  it('has every memory’s terms read and kept before any prompt asks (the first prompt does not wait for them)', async () => {
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    const dir = getAutoMemPath(sb.ctx())
    const week = Date.now() / 1000 - 7 * 86_400 // old enough to keep (not changed in the last seconds)
    for (const n of ['a', 'b', 'team/c']) utimesSync(writeFile(join(dir, `${n}.md`), mem(n)), week, week)
    const termFile = join(sb.env.MEMDIR_DATA_DIR, 'cache', 'recall', `${sanitizePath(dir)}.json`)
    const kept = () =>
      existsSync(termFile) ? (JSON.parse(readFileSync(termFile, 'utf8')) as { names: string[] }).names : []
    const host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    try {
      for (let waited = 0; kept().length < 3 && waited < 10_000; waited += 50)
        await new Promise((r) => setTimeout(r, 50))
      expect(kept().sort()).toEqual(['a.md', 'b.md', 'team/c.md'])
    } finally {
      await host.close()
    }
  })
})
