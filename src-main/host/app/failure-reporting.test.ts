import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import type { ActivityItem } from '../../../src-shared/types.js'
import { historyDirFor } from '../settings/app-data.js'
import { createHost } from './host.js'

describe('no silent failures', () => {
  it('a change history cannot record shows up in the activity log with the file it concerns', async () => {
    const sb = sandbox({ MEMDIR_DATA_DIR: '' })
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    clearAutoMemPathCache()
    const memoryDir = getAutoMemPath(sb.ctx())
    writeFile(join(memoryDir, 'a.md'), '---\nname: A\ndescription: alpha\ntype: user\n---\nx\n')
    const host = await createHost({ env: sb.env, projectRoot: sb.project })
    try {
      // The history's blob store becomes unusable (a file where its folder was).
      const objects = join(historyDirFor(sb.ctx(), memoryDir), 'objects')
      rmSync(objects, { recursive: true, force: true })
      writeFileSync(objects, 'not a folder')
      writeFileSync(join(memoryDir, 'a.md'), '---\nname: A\ndescription: alpha\ntype: user\n---\nedited\n')
      // The warning arrives once the watcher has seen the edit and history failed to record it.
      const items = await vi.waitFor(
        async () => {
          const r = (await host.call('activity/list', undefined)) as { ok: true; value: ActivityItem[] }
          const found = r.value.filter((a) => a.title === 'History could not record a change')
          expect(found).not.toEqual([])
          return found
        },
        { timeout: 5000, interval: 100 },
      )
      expect(items[0]).toMatchObject({ level: 'warning', files: ['a.md'], detail: expect.any(String) })
    } finally {
      await host.close()
    }
  })
})
