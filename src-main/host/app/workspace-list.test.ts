import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../../core/paths/auto-mem-path.js'
import { sanitizePath } from '../../core/paths/sanitize.js'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { discoverWorkspaces, rememberRecent, rememberRoot } from './workspace-list.js'

const mem = (name: string) => `---\nname: ${name}\ndescription: d\ntype: project\n---\n\nx\n`

describe('discoverWorkspaces', () => {
  it('lists a memory dir whose transcripts are gone, and recovers the root from a transcript when one is left', async () => {
    const sb = sandbox({ MEMDIR_DATA_DIR: undefined })
    const withTranscript = join(sb.root, 'work', 'web')
    const orphan = join(sb.root, 'work', 'billing')
    mkdirSync(withTranscript, { recursive: true })
    const webDir = join(sb.configDir, 'projects', sanitizePath(withTranscript))
    writeFile(join(webDir, 'memory', 'a.md'), mem('A'))
    writeFile(join(webDir, 's1.jsonl'), JSON.stringify({ type: 'user', cwd: withTranscript }) + '\n')
    writeFile(join(sb.configDir, 'projects', sanitizePath(orphan), 'memory', 'b.md'), mem('B'))
    writeFile(join(sb.configDir, 'projects', sanitizePath(orphan), 'memory', 'c.md'), mem('C'))
    // A project dir without a memory dir is not a workspace.
    mkdirSync(join(sb.configDir, 'projects', '-tmp-nothing'), { recursive: true })

    const list = await discoverWorkspaces(sb.ctx(), sb.env)
    expect(list.map((w) => [w.label, w.memoryCount, w.projectRoot])).toEqual([
      [sanitizePath(orphan), 2, ''],
      ['web', 1, withTranscript],
    ])

    // The folder the user picks for the orphan is remembered.
    mkdirSync(orphan, { recursive: true })
    await rememberRoot(sb.ctx(), list[0]!.memoryDir, orphan)
    const again = await discoverWorkspaces(sb.ctx(), sb.env)
    expect(again.find((w) => w.memoryCount === 2)).toMatchObject({ label: 'billing', projectRoot: orphan })
  })

  it('keeps opened folders as recents, one entry per memory dir, and counts what the browser lists', async () => {
    const sb = sandbox()
    await rememberRecent(sb.ctx(), sb.project)
    await rememberRecent(sb.ctx(), sb.project)
    let list = await discoverWorkspaces(sb.ctx(), sb.env)
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ label: 'proj', memoryCount: 0, recent: true })

    writeFile(join(getAutoMemPath(sb.ctx()), 'a.md'), mem('A'))
    writeFile(join(sb.project, '.claude', 'agent-memory', 'reviewer', 'r.md'), mem('R'))
    list = await discoverWorkspaces(sb.ctx(), sb.env, sb.project)
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ label: 'proj', memoryCount: 2, projectRoot: sb.project })
  })
})
