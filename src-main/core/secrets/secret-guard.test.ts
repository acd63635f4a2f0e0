import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { ProposalStore } from '../review/proposals.js'
import { REAL_SECRETS } from '../../../src-shared/secret-corpus.js'
import { createMemory, renameMemory, updateMemory } from '../store/memory-files.js'
import { SecretInMemoryError } from './secret-guard.js'

const [, secretLine] = REAL_SECRETS.find(([k]) => k === 'github-pat')!
const fields = (body: string) => ({
  name: 'Deploy',
  description: 'how we deploy',
  type: 'project' as const,
  body,
})

async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(SecretInMemoryError)
  return e as SecretInMemoryError
}

describe('one secret guard for every write', () => {
  it('refuses a secret in team memory with the rule and line, and writes nothing', async () => {
    const dir = tempDir()
    const e = await refusal(
      createMemory(dir, { ...fields(`use\n${secretLine}\n`), relPath: 'team/deploy.md' }),
    )
    expect(e.code).toBe('SECRET_IN_TEAM_MEMORY')
    expect(e.message).toMatch(/GitHub .*on line \d+/)
    expect(e.message).not.toContain(secretLine.slice(-10))
    expect(existsSync(join(dir, 'team', 'deploy.md'))).toBe(false)
  })

  it('warns on a secret in private memory, and saves once the user accepts', async () => {
    const dir = tempDir()
    expect((await refusal(createMemory(dir, { ...fields(secretLine), relPath: 'mine.md' }))).code).toBe(
      'SECRET_IN_MEMORY',
    )
    expect(existsSync(join(dir, 'mine.md'))).toBe(false)
    const doc = await createMemory(dir, {
      ...fields(secretLine),
      relPath: 'mine.md',
      acceptPrivateSecret: true,
    })
    expect(doc.raw).toContain(secretLine)
  })

  it('an update that adds a secret to team memory is refused; the file keeps its content', async () => {
    const dir = tempDir()
    const doc = await createMemory(dir, { ...fields('clean\n'), relPath: 'team/deploy.md' })
    await refusal(updateMemory(dir, 'team/deploy.md', fields(secretLine), doc.hash))
    expect(readFileSync(join(dir, 'team', 'deploy.md'), 'utf8')).toBe(doc.raw)
  })

  it('a file name that is itself a credential: refused in team/ (created or renamed there), asked about in private memory (created or renamed)', async () => {
    const dir = tempDir()
    const token = 'ghp_' + 'R7sQ2kLm9VxT4bN8cW1zY6hJ3fD5gA0pE2uK' // assembled: no scanner flags this file
    const e = await refusal(createMemory(dir, { ...fields('clean\n'), relPath: `team/${token}.md` }))
    expect(e.code).toBe('SECRET_IN_TEAM_MEMORY')
    expect(e.message).toContain('team/ghp_….md would contain a GitHub token (secretlint/github) in its name')
    expect(JSON.stringify(e)).not.toContain(token.slice(4))
    expect(existsSync(join(dir, 'team', `${token}.md`))).toBe(false)
    await createMemory(dir, { ...fields('clean\n'), relPath: 'team/deploy.md' })
    await refusal(renameMemory(dir, 'team/deploy.md', `team/${token}.md`))
    expect(existsSync(join(dir, 'team', 'deploy.md'))).toBe(true)
    const mine = `notes/${token}.md`
    expect((await refusal(createMemory(dir, { ...fields('clean\n'), relPath: mine }))).code).toBe(
      'SECRET_IN_MEMORY',
    )
    await createMemory(dir, { ...fields('clean\n'), relPath: mine, acceptPrivateSecret: true })
    expect(existsSync(join(dir, mine))).toBe(true)
    // A private rename to such a name is asked about as a create is (the name goes into MEMORY.md).
    await createMemory(dir, { ...fields('clean\n'), relPath: 'plan.md' })
    const asked = await refusal(renameMemory(dir, 'plan.md', `${token}.md`))
    expect(asked.code).toBe('SECRET_IN_MEMORY')
    expect(asked.message).toContain('ghp_….md would contain a GitHub token (secretlint/github) in its name')
    expect(existsSync(join(dir, 'plan.md'))).toBe(true)
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).not.toContain(`](${token}.md)`)
    await renameMemory(dir, 'plan.md', `${token}.md`, { acceptPrivateSecret: true })
    expect(existsSync(join(dir, `${token}.md`))).toBe(true)
    // A name without one is renamed as before.
    await renameMemory(dir, `${token}.md`, 'plan-2.md')
    expect(existsSync(join(dir, 'plan-2.md'))).toBe(true)
  })

  it('moving a private memory holding a secret into team/ is refused', async () => {
    const dir = tempDir()
    await createMemory(dir, { ...fields(secretLine), relPath: 'mine.md', acceptPrivateSecret: true })
    await refusal(renameMemory(dir, 'mine.md', 'team/mine.md'))
    expect(existsSync(join(dir, 'mine.md'))).toBe(true)
    expect(existsSync(join(dir, 'team', 'mine.md'))).toBe(false)
  })

  it('approving a proposal that puts a secret into team memory is refused, the proposal kept', async () => {
    const dir = tempDir()
    const store = new ProposalStore(tempDir())
    const p = await store.create({
      author: 'extraction',
      reason: 'x',
      files: [
        { path: 'team/keys.md', before: null, after: `---\nname: k\ndescription: d\n---\n${secretLine}\n` },
      ],
    })
    await refusal(store.approve(p.id, dir))
    expect(existsSync(join(dir, 'team', 'keys.md'))).toBe(false)
    expect((await store.list()).map((x) => x.id)).toEqual([p.id])
  })

  it('a proposal of a new file named with a credential is refused as proposed in either scope (the inbox edits text, not names)', async () => {
    const dir = tempDir()
    const store = new ProposalStore(tempDir())
    const token = 'ghp_' + 'R7sQ2kLm9VxT4bN8cW1zY6hJ3fD5gA0pE2uK'
    for (const path of [`team/${token}.md`, `notes/${token}.md`]) {
      const after = '---\nname: CI\ndescription: where the CI token lives\n---\nIn 1Password.\n'
      const p = await store.create({ author: 'mcp', reason: 'x', files: [{ path, before: null, after }] })
      const e = await refusal(store.approve(p.id, dir))
      expect(e.message).toContain('ghp_….md would contain a GitHub token (secretlint/github) in its name')
      await refusal(store.approve(p.id, dir, { [path]: 'edited text' }))
      expect(existsSync(join(dir, path))).toBe(false)
      expect((await store.list()).map((x) => x.id)).toContain(p.id)
    }
  })
})
