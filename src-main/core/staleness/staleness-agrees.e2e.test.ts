import { randomUUID } from 'node:crypto'
import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { describe, expect, it } from 'vitest'
import { BIN, runBuilt } from '../../../test/helpers/built-cli.js'
import { gitRepo } from '../../../test/helpers/git-repo.js'
import { sandbox, type Sandbox, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../paths/auto-mem-path.js'

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)
/** The memory's words for the renamed file, and what a fix replaces them with. */
interface Spelling {
  mention: (project: string) => string
  movedTo: (project: string) => string
  /** HOME for the processes (a `~/` path is read against it). */
  home?: (root: string) => string
}
const RELATIVE: Spelling = { mention: () => 'src/db.ts', movedTo: () => 'src/database.ts' }
const ABSOLUTE: Spelling = {
  mention: (project) => join(project, 'src/db.ts'),
  movedTo: (project) => join(project, 'src/database.ts'),
}
/** As a memory written on Windows names it (a team memory read here). */
const WINDOWS: Spelling = { mention: () => 'src\\db.ts', movedTo: () => 'src\\database.ts' }
const IN_HOME: Spelling = {
  mention: () => '~/work/proj/src/db.ts',
  movedTo: () => '~/work/proj/src/database.ts',
  home: (root) => root,
}

/**
 * A memory names `src/db.ts`; after it was saved, git renamed the file to `src/database.ts`. Health
 * (`memdir doctor`), recall (`memdir recall`), MCP `memory_search` and the prompt hook all say so,
 * in the same words — also when the project's folder is below the repository's root, when only the
 * memory's description names the file, when the memory names it by its absolute path or from
 * the home dir (`~/…`), as an agent often writes it, and with `\` as written on Windows. Once the user marks the memory as still true,
 * none of them says it any more.
 */
const IN_BODY = (path: string) =>
  `---\nname: Project DB\ndescription: where the database connection is made\ntype: project\n---\n\nThe connection is made in \`${path}\`.\n`
const IN_DESCRIPTION = (path: string) =>
  `---\nname: Project DB\ndescription: the database connection is made in ${path}\ntype: project\n---\n\nUse the shared pool.\n`
const QUERY = 'where is the database connection made'

describe.each([
  ['at the repository root, named in the body', '', IN_BODY, RELATIVE],
  ['in a folder below the repository root, named in the body', 'services/api', IN_BODY, RELATIVE],
  ['at the repository root, named only in the description', '', IN_DESCRIPTION, RELATIVE],
  ['at the repository root, named by its absolute path', '', IN_BODY, ABSOLUTE],
  ['in a folder below the repository root, named by its absolute path', 'services/api', IN_BODY, ABSOLUTE],
  ['at the repository root, named from the home dir', '', IN_DESCRIPTION, IN_HOME],
  ['in a folder below the repository root, named the Windows way', 'services/api', IN_BODY, WINDOWS],
])('a renamed file, the project %s', (_, sub, memoryText, spelling) => {
  it('is the same finding in Health, memdir doctor, recall, the MCP search note and the prompt hook, until marked still true', async () => {
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
    if (spelling.home) sb.env.HOME = spelling.home(sb.root)
    const mention = spelling.mention(project)
    const file = writeFile(join(memoryDir, 'project_db.md'), memoryText(mention))
    utimesSync(file, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
    writeFile(join(memoryDir, 'MEMORY.md'), '- [Project DB](project_db.md) — the database connection\n')
    repo.git(['mv', at('src/db.ts'), at('src/database.ts')])
    repo.commit('rename db', T0 + 2 * DAY)
    const said = `${mention}, which moved to ${spelling.movedTo(project)}`

    const before = await whatEachSays(sb, project)
    expect(before.findings.map((f) => [f.kind, f.message, f.movedTo])).toEqual([
      ['path-gone', `Mentions ${said}`, spelling.movedTo(project)],
    ])
    for (const text of [before.recall, before.mcp, before.hook])
      expect(text).toContain(`Note: this memory mentions ${said}.`)

    const verify = await runBuilt(['doctor', '--fix', 'verify', '--cwd', project], { env: sb.env })
    expect(verify.stdout).toContain('Marked project_db.md as still true')
    const after = await whatEachSays(sb, project)
    expect(after.findings).toEqual([])
    for (const text of [after.recall, after.mcp, after.hook]) {
      expect(text).toContain('database connection is made')
      expect(text).not.toContain('Note: this memory')
    }
  })
})

/** The doctor's findings, and the text recall, MCP search and a new session's prompt hook give. */
async function whatEachSays(sb: Sandbox, project: string) {
  const doctor = await runBuilt(['doctor', '--json', '--cwd', project], { env: sb.env })
  const findings = (
    JSON.parse(doctor.stdout) as { findings: { kind: string; message: string; movedTo?: string }[] }
  ).findings

  const recalled = await runBuilt(['recall', QUERY, '--json', '--cwd', project], { env: sb.env })
  const recall = (JSON.parse(recalled.stdout) as { injections: string[] }).injections.join('\n')

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--cwd', project],
    env: { PATH: process.env.PATH ?? '', ...sb.env } as Record<string, string>,
    stderr: 'pipe',
  })
  const client = new Client({ name: 'memdir-test-client', version: '1.0.0' })
  await client.connect(transport)
  let mcp: string
  try {
    const r = (await client.callTool({ name: 'memory_search', arguments: { query: QUERY } })) as {
      content: { text: string }[]
    }
    mcp = r.content.map((c) => c.text).join('\n')
  } finally {
    await client.close()
  }

  const input = {
    session_id: randomUUID(),
    transcript_path: join(sb.root, 'no-transcript-yet.jsonl'),
    cwd: project,
    hook_event_name: 'UserPromptSubmit',
    prompt: QUERY,
  }
  const prompted = await runBuilt(['hook', 'prompt'], { env: sb.env, input: JSON.stringify(input) })
  const hook = prompted.stdout
    ? (JSON.parse(prompted.stdout) as { hookSpecificOutput: { additionalContext: string } })
        .hookSpecificOutput.additionalContext
    : ''
  return { findings, recall, mcp, hook }
}
