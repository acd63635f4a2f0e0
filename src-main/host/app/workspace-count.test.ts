import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { createHost } from './host.js'

const mem = (n: string) => `---\nname: ${n}\ndescription: about ${n}\ntype: project\n---\n\nbody\n`

type Ok<T> = { ok: true; value: T }

describe('the picker count of the open workspace', () => {
  it('is what its memory list shows — its own and its agent memories — and follows a new memory', async () => {
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    const dir = getAutoMemPath(sb.ctx())
    for (const n of ['a', 'b', 'c']) writeFile(join(dir, `${n}.md`), mem(n))
    writeFile(join(dir, 'team', 't.md'), mem('t'))
    writeFile(join(sb.project, '.claude', 'agent-memory', 'reviewer', 'r.md'), mem('r'))
    const host = await createHost({ env: sb.env, projectRoot: sb.project, agentSocket: false })
    const counts = async () => {
      const list = (await host.call('memory/list', undefined)) as Ok<unknown[]>
      const picker = (await host.call('workspace/list', undefined)) as Ok<
        { projectRoot: string; memoryCount: number }[]
      >
      return [list.value.length, picker.value.find((w) => w.projectRoot === sb.project)?.memoryCount]
    }
    try {
      expect(await counts()).toEqual([5, 5])
      await host.call('memory/create', {
        input: { name: 'Fresh', description: 'a new one', type: 'user', body: 'x' },
        scope: 'private',
      })
      expect(await counts()).toEqual([6, 6])
    } finally {
      await host.close()
    }
  })
})
