import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { describe, expect, it } from 'vitest'
import { BIN, runBuilt } from '../../../test/helpers/built-cli.js'
import { gitRepo } from '../../../test/helpers/git-repo.js'
import { sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../paths/auto-mem-path.js'

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)
const SAID = 'src/db.ts, which moved to src/database.ts'

/**
 * A memory names `src/db.ts`; after it was saved, git renamed the file to `src/database.ts`. Health
 * (`memdir doctor`), recall (`memdir recall`) and MCP `memory_search` all say so, in the same
 * words — also when the project's folder is below the repository's root, and when only the
 * memory's description names the file.
 */
const IN_BODY =
  '---\nname: Project DB\ndescription: where the database connection is made\ntype: project\n---\n\nThe connection is made in `src/db.ts`.\n'
const IN_DESCRIPTION =
  '---\nname: Project DB\ndescription: the database connection is made in src/db.ts\ntype: project\n---\n\nUse the shared pool.\n'
describe.each([
  ['at the repository root, named in the body', '', IN_BODY],
  ['in a folder below the repository root, named in the body', 'services/api', IN_BODY],
  ['at the repository root, named only in the description', '', IN_DESCRIPTION],
])('a renamed file, the project %s', (_, sub, memoryText) => {
  it('is the same finding in Health, memdir doctor, recall and the MCP search note', async () => {
    const sb = sandbox()
    sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
    const repo = gitRepo(sb.project)
    const project = join(sb.project, sub)
    const at = (p: string) => (sub ? `${sub}/${p}` : p)
    repo.put(at('src/db.ts'), 'export const db = connect()\n'.repeat(20))
    repo.commit('db', T0)
    clearAutoMemPathCache()
    const ctx = sb.ctx({ projectRoot: project })
    const memoryDir = getAutoMemPath(ctx)
    const file = writeFile(join(memoryDir, 'project_db.md'), memoryText)
    utimesSync(file, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
    writeFile(join(memoryDir, 'MEMORY.md'), '- [Project DB](project_db.md) — the database connection\n')
    repo.git(['mv', at('src/db.ts'), at('src/database.ts')])
    repo.commit('rename db', T0 + 2 * DAY)

    const doctor = await runBuilt(['doctor', '--json', '--cwd', project], { env: sb.env })
    const findings = (
      JSON.parse(doctor.stdout) as { findings: { kind: string; message: string; movedTo?: string }[] }
    ).findings
    expect(findings.map((f) => [f.kind, f.message, f.movedTo])).toEqual([
      ['path-gone', `Mentions ${SAID}`, 'src/database.ts'],
    ])

    const recall = await runBuilt(
      ['recall', 'where is the database connection made', '--json', '--cwd', project],
      {
        env: sb.env,
      },
    )
    const injected = (JSON.parse(recall.stdout) as { injections: string[] }).injections.join('\n')
    expect(injected).toContain(`Note: this memory mentions ${SAID}.`)

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--cwd', project],
      env: { PATH: process.env.PATH ?? '', ...sb.env } as Record<string, string>,
      stderr: 'pipe',
    })
    const client = new Client({ name: 'memdir-test-client', version: '1.0.0' })
    await client.connect(transport)
    try {
      const r = (await client.callTool({
        name: 'memory_search',
        arguments: { query: 'where is the database connection made' },
      })) as { content: { text: string }[] }
      expect(r.content.map((c) => c.text).join('\n')).toContain(`Note: this memory mentions ${SAID}.`)
    } finally {
      await client.close()
    }
  })
})
