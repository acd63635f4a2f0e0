import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { snapshotOf } from '../../../test/helpers/history.js'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { ConflictError } from './atomic-write.js'
import { checkIndex } from '../health/index-checks.js'
import { createMemory, deleteMemory, readMemory, renameMemory, updateMemory } from './memory-files.js'
import { type MemoryFields, parseMemoryFile } from './frontmatter.js'

const fields = {
  name: 'Testing policy',
  description: 'Integration tests hit a real DB',
  type: 'feedback' as const,
  body: 'Use the real DB.\n\n**Why:** mocks hid a bug.\n',
}
const index = (dir: string, rel = 'MEMORY.md') => readFileSync(join(dir, rel), 'utf8')

describe('memory CRUD keeps MEMORY.md in step', () => {
  it('create writes the topic file and then its pointer line', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    expect(rec.relPath).toBe('testing_policy.md')
    expect(readFileSync(join(dir, 'testing_policy.md'), 'utf8')).toBe(
      '---\nname: Testing policy\ndescription: Integration tests hit a real DB\ntype: feedback\n---\n\nUse the real DB.\n\n**Why:** mocks hid a bug.\n',
    )
    expect(index(dir)).toBe('- [Testing policy](testing_policy.md) — Integration tests hit a real DB\n')
    expect(rec).toMatchObject({ name: 'Testing policy', type: 'feedback' })
  })

  it('refuses to create over an existing file', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'testing_policy.md'), 'mine\n')
    await expect(createMemory(dir, fields)).rejects.toMatchObject({ code: 'EXISTS' })
    expect(readFileSync(join(dir, 'testing_policy.md'), 'utf8')).toBe('mine\n')
  })

  it('refuses a team name that could not sync beside a team file already there; private names and case-only renames go', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'team', 'deploy.md'), '---\nname: Deploy\ndescription: d\ntype: project\n---\nx\n')
    writeFile(join(dir, 'team', 'Ops', 'runbook.md'), 'r\n')
    for (const [relPath, why] of [
      [
        'team/Deploy.md',
        'team/Deploy.md cannot join team/deploy.md: Deploy.md and deploy.md would be one file',
      ],
      ['team/ops/new.md', 'team/ops/new.md cannot join team/Ops/runbook.md: ops and Ops would be one folder'],
      ['team/deploy.md/more.md', 'deploy.md is a file there'],
    ] as const)
      await expect(createMemory(dir, { ...fields, relPath }), relPath).rejects.toMatchObject({
        code: 'INVALID_NAME',
        message: expect.stringContaining(why),
      })
    await expect(renameMemory(dir, 'team/deploy.md', 'team/ops/deploy.md')).rejects.toMatchObject({
      code: 'INVALID_NAME',
    })
    expect((await createMemory(dir, { ...fields, relPath: 'team/Ops/new.md' })).relPath).toBe(
      'team/Ops/new.md',
    )
    expect((await createMemory(dir, { ...fields, relPath: 'Deploy.md' })).relPath).toBe('Deploy.md')
    // No file system puts a file below a file, private or team: a clear refusal, not ENOTDIR.
    for (const relPath of ['Deploy.md/x.md', 'Deploy.md/deeper/x.md'])
      await expect(createMemory(dir, { ...fields, relPath }), relPath).rejects.toMatchObject({
        code: 'INVALID_NAME',
        message: `${relPath}: a folder on its path is a file`,
      })
    expect((await renameMemory(dir, 'team/deploy.md', 'team/Deploy.md')).relPath).toBe('team/Deploy.md')
  })

  it('refuses a private name that macOS and Windows would take for a file or folder already there; a change of case renames', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'deploy.md'), '---\nname: Deploy\ndescription: d\ntype: project\n---\nx\n')
    writeFile(join(dir, 'ops', 'runbook.md'), 'r\n')
    writeFile(join(dir, 'team', 'shared.md'), 's\n')
    writeFile(join(dir, 're\u0301sume\u0301.md'), 'cv\n')
    for (const [relPath, why] of [
      [
        'Deploy.md',
        'Deploy.md cannot be written beside deploy.md: Deploy.md and deploy.md would be one file',
      ],
      ['DEPLOY.md', 'DEPLOY.md and deploy.md would be one file'],
      ['Ops/new.md', 'Ops/new.md cannot be written beside ops: Ops and ops would be one folder'],
      ['ops/RUNBOOK.md', 'ops/RUNBOOK.md and ops/runbook.md would be one file'],
      // On macOS this is a team memory: it would sync without anyone choosing to share it.
      ['Team/notes.md', 'Team and team would be one folder'],
      // A name another Mac wrote decomposed (NFD) is the same name composed and in another case.
      ['Résumé.md', 'Résumé.md and re\u0301sume\u0301.md would be one file'],
    ] as const)
      await expect(createMemory(dir, { ...fields, relPath }), relPath).rejects.toMatchObject({
        code: 'INVALID_NAME',
        message: expect.stringContaining(why),
      })
    await expect(renameMemory(dir, 'ops/runbook.md', 'Deploy.md')).rejects.toMatchObject({
      code: 'INVALID_NAME',
    })
    expect(readdirSync(dir).sort()).toEqual(['deploy.md', 'ops', 're\u0301sume\u0301.md', 'team'])
    expect((await createMemory(dir, { ...fields, relPath: 'ops/new.md' })).relPath).toBe('ops/new.md')
    expect((await renameMemory(dir, 'deploy.md', 'Deploy.md')).relPath).toBe('Deploy.md')
    expect((await renameMemory(dir, 'ops/runbook.md', 'Ops/runbook.md')).relPath).toBe('Ops/runbook.md')
  })

  it('update saves when the hash matches and refreshes the pointer in place', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'MEMORY.md'), '# Index\n- [Other](other.md) — o\n')
    const rec = await createMemory(dir, fields)
    writeFile(join(dir, 'MEMORY.md'), index(dir) + '- [Last](last.md) — l\n')
    const up = await updateMemory(
      dir,
      rec.relPath,
      { ...fields, description: 'Real DB in integration tests' },
      rec.hash,
    )
    expect(up.description).toBe('Real DB in integration tests')
    expect(index(dir).split('\n')).toEqual([
      '# Index',
      '- [Other](other.md) — o',
      '- [Testing policy](testing_policy.md) — Real DB in integration tests',
      '- [Last](last.md) — l',
      '',
    ])
  })

  it('a CRLF MEMORY.md keeps its line breaks through create, update, rename and delete', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'MEMORY.md'), '# Index\r\n- [Other](other.md) — o\r\n')
    const rec = await createMemory(dir, fields)
    expect(index(dir)).toBe(
      '# Index\r\n- [Other](other.md) — o\r\n- [Testing policy](testing_policy.md) — Integration tests hit a real DB\r\n',
    )
    // The line Memdir wrote is still its own under CRLF: an update regenerates it, in place.
    const up = await updateMemory(dir, rec.relPath, { ...fields, description: 'Real DB' }, rec.hash)
    expect(index(dir)).toBe(
      '# Index\r\n- [Other](other.md) — o\r\n- [Testing policy](testing_policy.md) — Real DB\r\n',
    )
    await renameMemory(dir, up.relPath, 'policies/testing.md')
    expect(index(dir)).toBe(
      '# Index\r\n- [Other](other.md) — o\r\n- [Testing policy](policies/testing.md) — Real DB\r\n',
    )
    const moved = await readMemory(dir, 'policies/testing.md')
    await deleteMemory(dir, 'policies/testing.md', moved.hash)
    expect(index(dir)).toBe('# Index\r\n- [Other](other.md) — o\r\n')
  })

  it('a long description is cut for its MEMORY.md line between characters, never inside an emoji', async () => {
    for (let k = 0; k < 2; k++) {
      const dir = tempDir()
      const description = 'x'.repeat(100 + k) + '🚀'.repeat(40)
      await createMemory(dir, { ...fields, description })
      const line = index(dir).trimEnd()
      expect(line.length).toBeLessThanOrEqual(150)
      expect(line).not.toContain('\ufffd')
      expect(line).toMatch(/🚀…$/)
    }
  })

  it('update refuses to overwrite a file changed on disk, reporting both versions', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    writeFileSync(rec.path, 'changed by Claude Code\n')
    const err = await updateMemory(dir, rec.relPath, { ...fields, body: 'mine' }, rec.hash).catch((e) => e)
    expect(err).toBeInstanceOf(ConflictError)
    expect(err.current).toBe('changed by Claude Code\n')
    expect(err.attempted).toContain('mine')
    expect(readFileSync(rec.path, 'utf8')).toBe('changed by Claude Code\n')
  })

  it('a memory written again keeps its permissions: a private 0600 file stays unreadable to others, and its index too', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    chmodSync(join(dir, rec.relPath), 0o600)
    chmodSync(join(dir, 'MEMORY.md'), 0o640)
    const up = await updateMemory(dir, rec.relPath, { ...fields, body: 'mine\n' }, rec.hash)
    await updateMemory(dir, up.relPath, { ...fields, description: 'now with a new hook' }, up.hash)
    expect(statSync(join(dir, rec.relPath)).mode & 0o777).toBe(0o600)
    expect(statSync(join(dir, 'MEMORY.md')).mode & 0o777).toBe(0o640)
    expect(index(dir)).toContain('now with a new hook')
  })

  it('a log dropped into the memory dir is not opened as a memory, and can still be deleted', async () => {
    const dir = tempDir()
    const big =
      '---\nname: Build log\ndescription: pasted\ntype: project\n---\n' + 'x'.repeat(9 * 1024 * 1024)
    writeFile(join(dir, 'build_log.md'), big)
    await expect(readMemory(dir, 'build_log.md')).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message:
        'build_log.md is larger than 8.0 MiB, more than a memory holds (at most 1.0 MiB): Memdir does not open it; move it out of the memory dir, or delete it',
    })
    await deleteMemory(dir, 'build_log.md')
    expect(existsSync(join(dir, 'build_log.md'))).toBe(false)
  })

  it('an update keeps a 300-character name someone else wrote; a new one that long is refused', async () => {
    const dir = tempDir()
    const long = 'Deploy checklist: ' + 'staging, canary, rollback tag, '.repeat(9) + 'done'
    expect(long.length).toBeGreaterThan(290)
    const raw = `---\nname: ${long}\ndescription: what to check before a deploy\ntype: project\n---\nold\n`
    writeFile(join(dir, 'deploy.md'), raw)
    const before = await readMemory(dir, 'deploy.md')
    const input = { name: long, description: 'what to check before a deploy', type: 'project' as const }
    const rec = await updateMemory(dir, 'deploy.md', { ...input, body: 'new\n' }, before.hash)
    expect(rec.name).toBe(long)
    expect(rec.body).toBe('new\n')
    await expect(
      updateMemory(dir, 'deploy.md', { ...input, name: long + '!', body: 'x\n' }, rec.hash),
    ).rejects.toMatchObject({
      code: 'INVALID_NAME',
      message: expect.stringContaining('a name may be at most 200'),
    })
    await expect(createMemory(dir, { ...input, body: 'x\n', relPath: 'other.md' })).rejects.toMatchObject({
      code: 'INVALID_NAME',
    })
  })

  it('a file someone else named near the file system limit is updated, renamed and deleted: its temp and lock names fit', async () => {
    const dir = tempDir()
    // 253 bytes of UTF-8: ext4 and APFS hold it, and Claude Code writes any name they hold.
    for (const name of ['n'.repeat(250) + '.md', 'é'.repeat(125) + '.md', 'ops/' + 'r'.repeat(252) + '.md']) {
      writeFile(
        join(dir, name),
        '---\nname: Long\ndescription: named by someone else\ntype: project\n---\nold\n',
      )
      writeFile(join(dir, 'MEMORY.md'), `- [Long](${name}) — named by someone else\n`)
      const before = await readMemory(dir, name)
      const input = { name: 'Long', description: 'named by someone else', type: 'project' as const }
      const rec = await updateMemory(dir, name, { ...input, body: 'new\n' }, before.hash)
      expect(readFileSync(join(dir, name), 'utf8')).toContain('new\n')
      await deleteMemory(dir, name, rec.hash)
      expect(existsSync(join(dir, name))).toBe(false)
      expect(index(dir)).toBe('')
      // No temp or lock file is left beside it.
      expect(readdirSync(join(dir, name, '..')).filter((f) => f.startsWith('.'))).toEqual([])
    }
    writeFile(join(dir, 'x'.repeat(251) + '.md'), '---\nname: X\ndescription: d\ntype: project\n---\nbody\n')
    expect((await renameMemory(dir, 'x'.repeat(251) + '.md', 'x.md')).relPath).toBe('x.md')
  })

  it('a key written twice: the update changes the one that is read, so the file reads back as saved', async () => {
    const dir = tempDir()
    writeFile(
      join(dir, 'dup.md'),
      '---\nname: one\nname: two\ndescription: d\ntype: project\ntype: user\n---\n\nbody\n',
    )
    const before = await readMemory(dir, 'dup.md')
    expect(before).toMatchObject({ name: 'two', type: 'user' })
    const rec = await updateMemory(
      dir,
      'dup.md',
      { name: 'New name', description: 'd', type: 'feedback', body: 'body\n' },
      before.hash,
    )
    expect(rec).toMatchObject({ name: 'New name', type: 'feedback' })
    expect(rec.raw).toBe('---\nname: New name\ndescription: d\ntype: feedback\n---\n\nbody\n')
    // A key written twice that the update leaves alone stays as written.
    writeFile(
      join(dir, 'kept.md'),
      '---\nname: K\ndescription: d\ntype: user\ntags: [a]\ntags: [b]\n---\n\nbody\n',
    )
    const kept = await readMemory(dir, 'kept.md')
    const again = await updateMemory(
      dir,
      'kept.md',
      { name: 'K', description: 'd2', type: 'user', body: 'body\n' },
      kept.hash,
    )
    expect(again.raw).toBe('---\nname: K\ndescription: d2\ntype: user\ntags: [a]\ntags: [b]\n---\n\nbody\n')
  })

  it('a frontmatter too long to be read is body to the update as it is to the editor: kept whole, and no slow edit of it', async () => {
    const dir = tempDir()
    // Edited in place, its 20,000 keys were deleted one lookup at a time: seconds of the main process.
    const keys = Array.from({ length: 20_000 }, (_, i) => `p${i}: v`).join('\n')
    // YAML only the full parser reads (a flow list), past the length it is given.
    const text = `---\nname: Long\ndescription: d\ntype: user\ntags: [a, b]\n${keys}\n---\n\nbody\n`
    writeFile(join(dir, 'long.md'), text)
    const shown = await readMemory(dir, 'long.md')
    expect(shown.name).toBeUndefined()
    expect(shown.body).toContain('p19999: v')
    const started = performance.now()
    const rec = await updateMemory(
      dir,
      'long.md',
      { name: 'Long', description: 'given in the editor', type: 'user', body: shown.body },
      shown.hash,
    )
    expect(performance.now() - started).toBeLessThan(2_000)
    for (const k of ['p0: v', 'p10000: v', 'p19999: v']) expect(rec.raw).toContain(k)
    expect(rec).toMatchObject({ name: 'Long', description: 'given in the editor' })
  })

  it("YAML anchors: a changed value is the key's own, and someone else's key that pointed at it keeps its value", async () => {
    const dir = tempDir()
    /** The file as `text`, then updated with `fields` over the version read. */
    const updated = async (file: string, text: string, fields: Omit<MemoryFields, 'body'>) => {
      writeFile(join(dir, file), text)
      const shown = await readMemory(dir, file)
      return updateMemory(dir, file, { ...fields, body: shown.body }, shown.hash)
    }
    const rec = await updated(
      'anchored.md',
      '---\nname: &n Old name\ndescription: &d old\ntype: user\ntitle: *n\nsee_also: [*d, x]\n---\n\nbody\n',
      { name: 'New name', description: 'new', type: 'user' },
    )
    expect(rec.raw).toBe(
      '---\nname: &n New name\ndescription: &d new\ntype: user\ntitle: Old name\nsee_also: [old, x]\n---\n\nbody\n',
    )
    // A map Memdir replaces (the newest format's metadata) left the alias pointing at nothing: the save failed.
    const nested = await updated(
      'nested.md',
      '---\nname: n\ndescription: d\nmetadata: &m\n  type: user\nsame_as: *m\n---\n\nbody\n',
      { name: 'n', description: 'd', type: 'feedback' },
    )
    expect(nested.type).toBe('feedback')
    expect(parseMemoryFile(nested.raw).data).toMatchObject({ same_as: { type: 'user' } })
    // An anchor inside a replaced map, and one on a line a key written twice shadows (which goes).
    const inner = await updated(
      'inner.md',
      '---\nname: n\ndescription: d\nmetadata:\n  type: &t user\nkind: *t\n---\n\nbody\n',
      { name: 'n', description: 'd', type: 'feedback' },
    )
    expect(parseMemoryFile(inner.raw).data).toMatchObject({ kind: 'user', metadata: { type: 'feedback' } })
    const shadowed = await updated(
      'shadowed.md',
      '---\nname: &n one\nname: two\ndescription: d\ntype: user\ntitle: *n\n---\n\nbody\n',
      { name: 'three', description: 'd', type: 'user' },
    )
    expect(parseMemoryFile(shadowed.raw).data).toMatchObject({ name: 'three', title: 'one' })
    // More aliases than YAML resolves (a "billion laughs" guard): every reader takes the values as
    // text, and so does the save, which threw the parser's error before.
    const many = Array.from({ length: 150 }, (_, i) => `k${i}: *n`).join('\n')
    const saved = await updated(
      'many.md',
      `---\nname: &n N\ndescription: d\ntype: user\n${many}\n---\n\nbody\n`,
      {
        name: 'M',
        description: 'd',
        type: 'user',
      },
    )
    expect(saved.name).toBe('M')
    expect(parseMemoryFile(saved.raw).data).toMatchObject({ k0: '*n', k149: '*n' })
  })

  it('an update leaves the frontmatter as written: comments, flow lists and quoting stay, only changed values move', async () => {
    const dir = tempDir()
    const head =
      '---\n# owner: platform team\nname: Deploy\ndescription: how we deploy\ntype: project\ntags: [ci, deploy]   # why these\nquoted: "keep: this"\n---\n'
    writeFile(join(dir, 'deploy.md'), `${head}\nold body\n`)
    const input = { name: 'Deploy', description: 'how we deploy', type: 'project' as const }
    let rec = await updateMemory(
      dir,
      'deploy.md',
      { ...input, body: 'new body\n' },
      (await readMemory(dir, 'deploy.md')).hash,
    )
    expect(rec.raw).toBe(`${head}\nnew body\n`)
    rec = await updateMemory(
      dir,
      'deploy.md',
      { ...input, description: 'how we ship', body: 'new body\n' },
      rec.hash,
    )
    expect(rec.raw).toBe(
      '---\n# owner: platform team\nname: Deploy\ndescription: how we ship\ntype: project\ntags: [ci, deploy] # why these\nquoted: "keep: this"\n---\n\nnew body\n',
    )
    // Windows line endings and no blank line after the block, as someone else saved it.
    writeFile(join(dir, 'crlf.md'), '---\r\nname: C\r\ndescription: d\r\ntype: user\r\n---\r\nold\r\n')
    rec = await updateMemory(
      dir,
      'crlf.md',
      { name: 'C', description: 'd', type: 'user', body: 'new\n' },
      (await readMemory(dir, 'crlf.md')).hash,
    )
    // The body keeps the file's CRLF too: the editor hands over LF text.
    expect(rec.raw).toBe('---\r\nname: C\r\ndescription: d\r\ntype: user\r\n---\r\nnew\r\n')
    rec = await updateMemory(
      dir,
      'crlf.md',
      { name: 'C', description: 'd2', type: 'user', body: 'new\n\nsecond line\n' },
      rec.hash,
    )
    expect(rec.raw).toBe(
      '---\r\nname: C\r\ndescription: d2\r\ntype: user\r\n---\r\nnew\r\n\r\nsecond line\r\n',
    )
  })

  it('keeps unknown frontmatter keys on update', async () => {
    const dir = tempDir()
    writeFile(
      join(dir, 'x.md'),
      '---\nname: X\ndescription: d\ntype: user\noriginSessionId: abc-123\n---\nbody\n',
    )
    const rec = await readMemory(dir, 'x.md')
    await updateMemory(dir, 'x.md', { name: 'X', description: 'd2', type: 'user', body: 'body\n' }, rec.hash)
    expect(readFileSync(join(dir, 'x.md'), 'utf8')).toContain('originSessionId: abc-123')
  })

  it('rename moves the file and its pointer, never over an existing file', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    writeFile(join(dir, 'taken.md'), 'keep\n')
    await expect(renameMemory(dir, rec.relPath, 'taken.md')).rejects.toMatchObject({ code: 'EXISTS' })
    expect(readFileSync(join(dir, 'taken.md'), 'utf8')).toBe('keep\n')
    await renameMemory(dir, rec.relPath, 'policies/testing.md')
    expect(existsSync(rec.path)).toBe(false)
    expect(index(dir)).toBe('- [Testing policy](policies/testing.md) — Integration tests hit a real DB\n')
  })

  /** deploy.md, linked from its own line, a sentence the user wrote and a reference definition. */
  async function linkedThreeWays() {
    const dir = tempDir()
    const rec = await createMemory(dir, { ...fields, relPath: 'deploy.md' })
    const own = index(dir).trimEnd()
    writeFile(
      join(dir, 'MEMORY.md'),
      `# Memory\n${own}\n\nBefore a release read [the deploy notes](deploy.md#why).\n\n[dep]: deploy.md\n`,
    )
    return { dir, rec, own }
  }

  it("rename leads every link to the memory in the user's index to its new name, not only its own line", async () => {
    const { dir, rec, own } = await linkedThreeWays()
    await renameMemory(dir, rec.relPath, 'ops/release.md')
    const after = index(dir)
    expect(after).toBe(
      `# Memory\n${own.replace('(deploy.md)', '(ops/release.md)')}\n\nBefore a release read [the deploy notes](ops/release.md#why).\n\n[dep]: ops/release.md\n`,
    )
    expect(checkIndex('MEMORY.md', after, ['ops/release.md'])).toEqual([])
  })

  it("rename into team/ moves the memory's line there, and the user's other links to it in MEMORY.md follow it", async () => {
    const { dir, rec, own } = await linkedThreeWays()
    await renameMemory(dir, rec.relPath, 'team/deploy.md')
    const after = index(dir)
    expect(after).toBe(
      '# Memory\n\nBefore a release read [the deploy notes](team/deploy.md#why).\n\n[dep]: team/deploy.md\n',
    )
    expect(readFileSync(join(dir, 'team', 'MEMORY.md'), 'utf8')).toBe(`${own}\n`)
    expect(checkIndex('MEMORY.md', after, ['team/deploy.md'])).toEqual([])
  })

  it('rename to a name that already leads to the same file (a hard link of it; a change of case on macOS or Windows) renames it in place', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, { ...fields, relPath: 'deploy.md' })
    linkSync(rec.path, join(dir, 'Deploy.md'))
    expect((await renameMemory(dir, 'deploy.md', 'Deploy.md')).relPath).toBe('Deploy.md')
    expect(readdirSync(dir).sort()).toEqual(['Deploy.md', 'MEMORY.md'])
    expect(readFileSync(join(dir, 'Deploy.md'), 'utf8')).toBe(rec.raw)
    expect(index(dir)).toBe('- [Testing policy](Deploy.md) — Integration tests hit a real DB\n')
    // Another file under the new name is still never overwritten.
    writeFile(join(dir, 'other.md'), 'keep\n')
    await expect(renameMemory(dir, 'Deploy.md', 'other.md')).rejects.toMatchObject({ code: 'EXISTS' })
    expect(readFileSync(join(dir, 'other.md'), 'utf8')).toBe('keep\n')
  })

  it('two renames of one memory at once: one moves it, the other finds it gone (never two copies)', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    const outcomes = await Promise.allSettled([
      renameMemory(dir, rec.relPath, 'b.md'),
      renameMemory(dir, rec.relPath, 'c.md'),
    ])
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected'])
    const failed = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
    expect(failed.reason).toMatchObject({ code: 'NOT_FOUND' })
    const moved = (
      outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ relPath: string }>
    ).value.relPath
    expect(['b.md', 'c.md'].filter((f) => existsSync(join(dir, f)))).toEqual([moved])
    expect(existsSync(rec.path)).toBe(false)
    expect(index(dir)).toBe(`- [Testing policy](${moved}) — Integration tests hit a real DB\n`)
  })

  it('a save and a rename of one memory at once: the saved text ends up under one name, never beside a copy', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    const [saved, renamed] = await Promise.allSettled([
      updateMemory(dir, rec.relPath, { ...fields, body: 'saved meanwhile\n' }, rec.hash),
      renameMemory(dir, rec.relPath, 'b.md'),
    ])
    expect(renamed.status).toBe('fulfilled')
    expect(existsSync(rec.path)).toBe(false)
    const body = readFileSync(join(dir, 'b.md'), 'utf8')
    if (saved.status === 'fulfilled') expect(body).toContain('saved meanwhile')
    else expect(saved.reason).toMatchObject({ code: expect.stringMatching(/^(CONFLICT|NOT_FOUND)$/) })
  })

  it('rename into team/ moves the pointer to team/MEMORY.md', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    await renameMemory(dir, rec.relPath, 'team/testing.md')
    expect(index(dir)).toBe('')
    expect(index(dir, 'team/MEMORY.md')).toBe(
      '- [Testing policy](testing.md) — Integration tests hit a real DB\n',
    )
  })

  it('delete removes the file and its pointer; a stale hash is a conflict', async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    await expect(deleteMemory(dir, rec.relPath, '0'.repeat(64))).rejects.toBeInstanceOf(ConflictError)
    await deleteMemory(dir, rec.relPath, rec.hash)
    expect(existsSync(rec.path)).toBe(false)
    expect(index(dir)).toBe('')
  })

  it.each([
    ['a ./ path', '- [Mine](./my notes.md) — mine', 'my notes.md', '- [Mine](<./renamed file.md>) — mine'],
    ['angle brackets', '- [Mine](<my notes.md>) — mine', 'my notes.md', '- [Mine](<renamed file.md>) — mine'],
    [
      'percent-encoding',
      '- [Mine](my%20notes.md) — mine',
      'my notes.md',
      '- [Mine](renamed%20file.md) — mine',
    ],
    [
      'a link title',
      '- [Mine](notes.md "tip") — mine',
      'notes.md',
      '- [Mine](<renamed file.md> "tip") — mine',
    ],
    ['a star bullet', '* [Mine](notes.md): mine', 'notes.md', '* [Mine](<renamed file.md>): mine'],
    ['a reference definition', '[mine]: notes.md', 'notes.md', '[mine]: <renamed file.md>'],
    ['a wikilink (Obsidian)', '- [[notes]] — mine', 'notes.md', '- [[renamed file]] — mine'],
    [
      'a wikilink with .md and shown text',
      '- [[my notes.md|Mine]] — mine',
      'my notes.md',
      '- [[renamed file.md|Mine]] — mine',
    ],
    [
      'a wikilink to a heading',
      '1. [[notes#Why|Mine]]: mine',
      'notes.md',
      '1. [[renamed file#Why|Mine]]: mine',
    ],
    [
      'a link to a heading',
      '- [Mine](notes.md#why) — mine',
      'notes.md',
      '- [Mine](<renamed file.md#why>) — mine',
    ],
    [
      'a link to a heading, in <…>',
      '- [Mine](<my notes.md#why-it-matters>) — mine',
      'my notes.md',
      '- [Mine](<renamed file.md#why-it-matters>) — mine',
    ],
    [
      'a # in the file name itself',
      '- [Mine](c#notes.md) — mine',
      'c#notes.md',
      '- [Mine](<renamed file.md>) — mine',
    ],
  ])(
    'a pointer someone wrote with %s stays theirs: kept on update, retargeted on rename, removed on delete, seen by Health',
    async (_how, line, rel, renamedLine) => {
      const dir = tempDir()
      const own = `# Index\n${line}\n- [Other](other.md) — o\n`
      // Its line is not the one Memdir would generate (that one may be regenerated).
      writeFile(join(dir, rel), '---\nname: Mine\ndescription: what it holds\ntype: user\n---\n\nbody\n')
      writeFile(join(dir, 'other.md'), '---\nname: Other\ndescription: o\ntype: user\n---\n\no\n')
      writeFile(join(dir, 'MEMORY.md'), own)
      const files = [rel, 'other.md']
      expect(checkIndex('MEMORY.md', own, files)).toEqual([])
      const rec = await readMemory(dir, rel)
      const up = await updateMemory(dir, rel, { ...fields, name: 'Mine v2' }, rec.hash)
      expect(index(dir)).toBe(own) // no second pointer appended under theirs
      const moved = await renameMemory(dir, rel, 'renamed file.md')
      expect(index(dir)).toBe(`# Index\n${renamedLine}\n- [Other](other.md) — o\n`) // only the target changed
      expect(checkIndex('MEMORY.md', index(dir), ['renamed file.md', 'other.md'])).toEqual([])
      await deleteMemory(dir, moved.relPath, (await readMemory(dir, moved.relPath)).hash)
      expect(index(dir)).toBe('# Index\n- [Other](other.md) — o\n')
      expect(up.relPath).toBe(rel)
    },
  )

  it('a wikilink naming a memory in a folder finds it by name, as Obsidian does', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'policies/testing.md'), '---\nname: Mine\ndescription: d\ntype: user\n---\n\nbody\n')
    writeFile(join(dir, 'MEMORY.md'), '- [[testing|Testing]] — how we test\n')
    expect(checkIndex('MEMORY.md', index(dir), ['policies/testing.md'])).toEqual([])
    const rec = await readMemory(dir, 'policies/testing.md')
    await updateMemory(dir, rec.relPath, { ...fields, name: 'Mine' }, rec.hash)
    expect(index(dir)).toBe('- [[testing|Testing]] — how we test\n')
    await renameMemory(dir, rec.relPath, 'policies/testing [draft].md')
    // A name a wikilink cannot hold: the line links it the Markdown way, with the same text.
    expect(index(dir)).toBe('- [Testing](<policies/testing [draft].md>) — how we test\n')
  })

  it("a wikilink by a memory's name (newer Claude Code links [[its-name]]) is no dead pointer in Health", () => {
    const content = '- [[deploy-notes]] — how we ship\n'
    const files = ['deploy_notes.md']
    expect(checkIndex('MEMORY.md', content, files, new Map([['deploy_notes.md', 'deploy-notes']]))).toEqual(
      [],
    )
    // A name nothing has is still reported, and the memory it does not reach too.
    const other = checkIndex('MEMORY.md', content, files, new Map([['deploy_notes.md', 'Deploy notes']]))
    expect(other.map((f) => f.kind).sort()).toEqual(['dead-pointer', 'unindexed'])
  })

  it("deleting a memory that a wikilink in someone's prose names keeps the prose, unlinked", async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    writeFile(join(dir, 'other.md'), '---\nname: Other\ndescription: o\ntype: user\n---\n\no\n')
    writeFile(join(dir, 'MEMORY.md'), `Read [[testing_policy|the policy]] and ![[other]] first.\n`)
    await deleteMemory(dir, rec.relPath, rec.hash)
    expect(index(dir)).toBe('Read the policy and ![[other]] first.\n')
  })

  it('a memory someone named as Linux allows (deploy:prod.md) is updated with its pointer; a new one is not named so', async () => {
    const dir = tempDir()
    writeFile(
      join(dir, 'deploy:prod.md'),
      '---\nname: Prod deploy\ndescription: d\ntype: project\n---\n\nbody\n',
    )
    const rec = await readMemory(dir, 'deploy:prod.md')
    const up = await updateMemory(dir, 'deploy:prod.md', { ...fields, name: 'Prod deploy' }, rec.hash)
    expect(up.body).toBe(fields.body)
    expect(index(dir)).toBe('- [Prod deploy](deploy:prod.md) — Integration tests hit a real DB\n')
    await expect(createMemory(dir, { ...fields, relPath: 'other:name.md' })).rejects.toMatchObject({
      code: 'INVALID_NAME',
    })
    await expect(renameMemory(dir, 'deploy:prod.md', 'still?odd.md')).rejects.toMatchObject({
      code: 'INVALID_NAME',
    })
    // A name that would break the index line: refused before anything is written.
    const bidi = 'spoof\u202egpj.md'
    writeFile(join(dir, bidi), '---\nname: x\ndescription: d\ntype: user\n---\n\nold\n')
    const hash = (await readMemory(dir, bidi)).hash
    await expect(updateMemory(dir, bidi, fields, hash)).rejects.toMatchObject({ code: 'INVALID_NAME' })
    expect(readFileSync(join(dir, bidi), 'utf8')).toContain('old')
  })

  it("deleting a memory that someone's prose line also names keeps the line and its other pointers", async () => {
    const dir = tempDir()
    const rec = await createMemory(dir, fields)
    writeFile(join(dir, 'other.md'), '---\nname: Other\ndescription: o\ntype: user\n---\n\no\n')
    const prose = `Before a release see [the policy](${rec.relPath}) and [the other one](other.md "tip").`
    writeFile(join(dir, 'MEMORY.md'), `${index(dir)}${prose}\n`)
    await deleteMemory(dir, rec.relPath, rec.hash)
    // Its own pointer line goes; the prose keeps its words and its link to other.md.
    expect(index(dir)).toBe('Before a release see the policy and [the other one](other.md "tip").\n')
  })

  it.each(['../outside.md', '/etc/x.md', 'a/../../b.md', 'MEMORY.md', 'notes.txt', 'x\0.md', '%2e%2e/x.md'])(
    'rejects the name %s',
    async (rel) => {
      const dir = tempDir()
      await expect(createMemory(dir, { ...fields, relPath: rel })).rejects.toMatchObject({
        code: 'INVALID_NAME',
      })
    },
  )

  it('a memory or MEMORY.md its owner made read-only keeps its text; what needs it changed is refused before anything is written', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'locked.md'), '---\nname: Locked\ndescription: d\ntype: user\n---\n\nkeep me\n')
    chmodSync(join(dir, 'locked.md'), 0o444)
    const shown = await readMemory(dir, 'locked.md')
    await expect(
      updateMemory(
        dir,
        'locked.md',
        { name: 'Locked', description: 'd', type: 'user', body: 'changed\n' },
        shown.hash,
      ),
    ).rejects.toMatchObject({ code: 'READ_ONLY', message: expect.stringContaining('(mode 444)') })
    expect(readFileSync(join(dir, 'locked.md'), 'utf8')).toContain('keep me')
    await renameMemory(dir, 'locked.md', 'still-locked.md')
    expect(statSync(join(dir, 'still-locked.md')).mode & 0o777).toBe(0o444)
    chmodSync(join(dir, 'still-locked.md'), 0o644)

    // A read-only index: a new memory, a new description on its line, a rename or a delete would
    // change it, and each is refused whole; a body saved under an unchanged line goes through.
    const index = '- [Locked](still-locked.md) — d\n'
    writeFile(join(dir, 'MEMORY.md'), index)
    chmodSync(join(dir, 'MEMORY.md'), 0o444)
    const before = snapshotOf(dir)
    const readOnly = { code: 'READ_ONLY' }
    await expect(createMemory(dir, fields)).rejects.toMatchObject(readOnly)
    const rec = await readMemory(dir, 'still-locked.md')
    const input = { name: 'Locked', description: 'd', type: 'user' as const, body: 'keep me\n' }
    await expect(
      updateMemory(dir, 'still-locked.md', { ...input, description: 'd2' }, rec.hash),
    ).rejects.toMatchObject(readOnly)
    await expect(renameMemory(dir, 'still-locked.md', 'moved.md')).rejects.toMatchObject(readOnly)
    await expect(deleteMemory(dir, 'still-locked.md')).rejects.toMatchObject(readOnly)
    expect(snapshotOf(dir)).toEqual(before)
    await updateMemory(dir, 'still-locked.md', { ...input, body: 'new body\n' }, rec.hash)
    expect(readFileSync(join(dir, 'still-locked.md'), 'utf8')).toContain('new body')
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe(index)
  })

  it('refuses to write through a symlink that leaves the memory dir', async () => {
    const root = tempDir()
    const dir = join(root, 'memory')
    const outside = join(root, 'outside')
    writeFile(join(outside, '.keep'), '')
    writeFile(join(dir, '.keep'), '')
    symlinkSync(outside, join(dir, 'linked'))
    await expect(createMemory(dir, { ...fields, relPath: 'linked/evil.md' })).rejects.toMatchObject({
      code: 'INVALID_PATH',
    })
    expect(existsSync(join(outside, 'evil.md'))).toBe(false)
  })

  /** Saves a new body into the Deploy memory at deploy.md, over the version read. */
  const saveDeployBody = async (dir: string, body: string) =>
    updateMemory(
      dir,
      'deploy.md',
      { name: 'Deploy', description: 'd', type: 'project', body },
      (await readMemory(dir, 'deploy.md')).hash,
    )

  it('a memory dir that is itself a link (to a dotfiles repo) is written like any other: MEMORY.md lands where it leads', async () => {
    const root = tempDir()
    const real = join(root, 'dotfiles', 'memory')
    writeFile(join(real, 'deploy.md'), '---\nname: Deploy\ndescription: d\ntype: project\n---\n\nold\n')
    const dir = join(root, 'projects', 'p', 'memory')
    writeFile(join(root, 'projects', 'p', '.keep'), '')
    symlinkSync(real, dir)
    // No MEMORY.md yet: its place was taken for a link leading out of the memory dir.
    await saveDeployBody(dir, 'new\n')
    await createMemory(dir, fields)
    await renameMemory(dir, 'deploy.md', 'release.md')
    expect(readFileSync(join(real, 'MEMORY.md'), 'utf8')).toBe(
      '- [Deploy](release.md) — d\n- [Testing policy](testing_policy.md) — Integration tests hit a real DB\n',
    )
    await deleteMemory(dir, 'release.md')
    expect(readdirSync(real).sort()).toEqual(['MEMORY.md', 'testing_policy.md'])
    expect(lstatSync(dir).isSymbolicLink()).toBe(true)
    // A link to a checkout that is not there yet says where it leads.
    const dangling = join(root, 'projects', 'q', 'memory')
    writeFile(join(root, 'projects', 'q', '.keep'), '')
    symlinkSync(join(root, 'elsewhere', 'memory'), dangling)
    await expect(createMemory(dangling, fields)).rejects.toMatchObject({
      code: 'INVALID_PATH',
      message: expect.stringContaining(
        `it leads to ${join(root, 'elsewhere', 'memory')}, which does not exist`,
      ),
    })
  })

  it('a MEMORY.md or memory the user linked to another file in the memory dir is written through: the link stays', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'notes', 'index.md'), '- [Old](old.md) — o\n')
    symlinkSync('notes/index.md', join(dir, 'MEMORY.md'))
    writeFile(
      join(dir, 'notes', 'deploy.md'),
      '---\nname: Deploy\ndescription: d\ntype: project\n---\n\nold\n',
    )
    symlinkSync('notes/deploy.md', join(dir, 'deploy.md'))
    await createMemory(dir, fields)
    expect(lstatSync(join(dir, 'MEMORY.md')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(dir, 'notes', 'index.md'), 'utf8')).toContain('(testing_policy.md)')
    await saveDeployBody(dir, 'new\n')
    expect(lstatSync(join(dir, 'deploy.md')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(dir, 'notes', 'deploy.md'), 'utf8')).toContain('new')
  })

  it('a memory that is a relative link, renamed into another folder, still leads to its file', async () => {
    const dir = tempDir()
    writeFile(
      join(dir, 'notes', 'deploy.md'),
      '---\nname: Deploy\ndescription: d\ntype: project\n---\n\nbody\n',
    )
    symlinkSync('notes/deploy.md', join(dir, 'deploy.md'))
    writeFile(join(dir, 'MEMORY.md'), '- [Deploy](deploy.md) — d\n')
    const moved = await renameMemory(dir, 'deploy.md', 'ops/deploy.md')
    expect(moved.body).toBe('body\n')
    expect(lstatSync(join(dir, 'ops', 'deploy.md')).isSymbolicLink()).toBe(true)
    expect(existsSync(join(dir, 'deploy.md'))).toBe(false)
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('- [Deploy](ops/deploy.md) — d\n')
    // Moved back beside its file's folder, the link is written relative to there again.
    await renameMemory(dir, 'ops/deploy.md', 'deploy.md')
    expect(readFileSync(join(dir, 'deploy.md'), 'utf8')).toContain('body')
  })

  it('a MEMORY.md linked outside the memory dir is never written through nor replaced: the pointer is refused, saying where to add it', async () => {
    const root = tempDir()
    const dir = join(root, 'memory')
    const outside = writeFile(join(root, 'dotfiles', 'index.md'), '- [Old](old.md) — o\n')
    writeFile(join(dir, '.keep'), '')
    symlinkSync(outside, join(dir, 'MEMORY.md'))
    await expect(createMemory(dir, fields)).rejects.toMatchObject({
      code: 'READ_ONLY',
      message: expect.stringContaining('Add the pointer there yourself'),
    })
    expect(lstatSync(join(dir, 'MEMORY.md')).isSymbolicLink()).toBe(true)
    expect(readFileSync(outside, 'utf8')).toBe('- [Old](old.md) — o\n')
  })

  it('requires a name and a description', async () => {
    const dir = tempDir()
    await expect(createMemory(dir, { ...fields, description: ' ' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })
})

describe('a memory the client stamped', () => {
  const stamped =
    '---\nname: deploy-day\ndescription: We deploy on Fridays\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: first-session\n  modified: 2026-01-01T00:00:00.000Z\n  reviewer: ana\nx-team-tag: ops\n---\n\nFridays.\n'

  it('an update from the editor bumps modified and keeps every key Memdir does not know', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'deploy_day.md'), stamped)
    const rec = await readMemory(dir, 'deploy_day.md')
    const before = Date.now()
    await updateMemory(
      dir,
      'deploy_day.md',
      {
        ...rec,
        name: rec.name!,
        description: 'We deploy on Fridays only',
        type: 'project',
        body: 'Fridays only.\n',
      },
      rec.hash,
      'nested',
    )
    const after = (await readMemory(dir, 'deploy_day.md')).raw
    const meta = /metadata:\n([\s\S]*?)\n[^ ]/.exec(after)![1]!
    expect(meta).toContain('node_type: memory')
    expect(meta).toContain('originSessionId: first-session')
    expect(meta).toContain('reviewer: ana')
    expect(after).toContain('x-team-tag: ops')
    const modified = Date.parse(/modified: (\S+)/.exec(meta)![1]!)
    expect(modified).toBeGreaterThanOrEqual(before - 1000)
  })

  it("an update that leaves the name as it reads keeps someone's name as written, not kebab-cased; a changed name is", async () => {
    const dir = tempDir()
    writeFile(
      join(dir, 'freeze.md'),
      '---\nname: Deploy freeze\ndescription: No Friday deploys\nmetadata:\n  type: project\n---\n\nFridays.\n',
    )
    const rec = await readMemory(dir, 'freeze.md')
    expect(rec.name).toBe('Deploy freeze')
    const edited = {
      name: rec.name!,
      description: 'No deploys on Fridays',
      type: 'project' as const,
      body: rec.body,
    }
    const saved = await updateMemory(dir, 'freeze.md', edited, rec.hash, 'nested')
    expect(readFileSync(join(dir, 'freeze.md'), 'utf8')).toBe(
      '---\nname: Deploy freeze\ndescription: No deploys on Fridays\nmetadata:\n  type: project\n---\n\nFridays.\n',
    )
    expect(index(dir)).toContain('[Deploy freeze](freeze.md)')
    await updateMemory(dir, 'freeze.md', { ...edited, name: 'Release freeze' }, saved.hash, 'nested')
    expect(readFileSync(join(dir, 'freeze.md'), 'utf8')).toContain('\nname: release-freeze\n')
  })

  it("a body-only edit keeps a description's block lines and spacing as written; a changed one is one line", async () => {
    const dir = tempDir()
    const head = '---\nname: Lag\ndescription: |\n  consumer lag alert\n  for   orders\ntype: project\n---\n'
    writeFile(join(dir, 'lag.md'), `${head}\nOld.\n`)
    const rec = await readMemory(dir, 'lag.md')
    expect(rec.description).toBe('consumer lag alert\nfor   orders')
    const edited = {
      name: rec.name!,
      description: rec.description!,
      type: 'project' as const,
      body: 'New.\n',
    }
    const saved = await updateMemory(dir, 'lag.md', edited, rec.hash, 'flat')
    expect(readFileSync(join(dir, 'lag.md'), 'utf8')).toBe(`${head}\nNew.\n`)
    await updateMemory(
      dir,
      'lag.md',
      { ...edited, description: 'consumer lag alert for  orders ' },
      saved.hash,
      'flat',
    )
    expect((await readMemory(dir, 'lag.md')).description).toBe('consumer lag alert for orders')
  })

  it('a body-only edit keeps a type the reader cannot use ("Feedback") as written; choosing a type replaces it', async () => {
    const dir = tempDir()
    for (const [rel, head] of [
      ['flat.md', '---\nname: Flat\ndescription: capital type\ntype: Feedback\n---\n'],
      ['nested.md', '---\nname: nested\ndescription: capital type\nmetadata:\n  type: Feedback\n---\n'],
    ] as const) {
      writeFile(join(dir, rel), `${head}\nOld.\n`)
      const rec = await readMemory(dir, rel)
      expect(rec.type).toBeUndefined()
      const edited = { name: rec.name!, description: rec.description!, body: 'New.\n' }
      for (const format of ['flat', 'nested'] as const) {
        const now = await readMemory(dir, rel)
        await updateMemory(dir, rel, { ...edited, body: `New ${format}.\n` }, now.hash, format)
        expect(readFileSync(join(dir, rel), 'utf8')).toBe(`${head}\nNew ${format}.\n`)
      }
      const now = await readMemory(dir, rel)
      await updateMemory(dir, rel, { ...edited, type: 'feedback' }, now.hash, 'flat')
      expect(readFileSync(join(dir, rel), 'utf8')).not.toContain('Feedback')
      expect((await readMemory(dir, rel)).type).toBe('feedback')
    }
  })

  it('a memory given no type, in the newer format, is written without an empty metadata map', async () => {
    const dir = tempDir()
    writeFile(join(dir, 'plain.md'), 'Just a body, no frontmatter.\n')
    const rec = await readMemory(dir, 'plain.md')
    await updateMemory(
      dir,
      'plain.md',
      { name: 'plain', description: 'A note', body: rec.body },
      rec.hash,
      'nested',
    )
    expect(readFileSync(join(dir, 'plain.md'), 'utf8')).toBe(
      '---\nname: plain\ndescription: A note\n---\n\nJust a body, no frontmatter.\n',
    )
    const made = await createMemory(dir, {
      name: 'No type',
      description: 'untyped',
      body: 'x\n',
      format: 'nested',
    })
    expect(readFileSync(join(dir, made.relPath), 'utf8')).toBe(
      '---\nname: no-type\ndescription: untyped\n---\n\nx\n',
    )
  })

  it('a new memory gets the stamps of the client the user runs, and none for an older one', async () => {
    const dir = tempDir()
    await createMemory(dir, {
      ...fields,
      format: 'nested',
      stamps: ['node_type', 'originSessionId', 'modified'],
    })
    const file = readFileSync(join(dir, 'testing_policy.md'), 'utf8')
    expect(file).toMatch(/metadata:\n {2}node_type: memory\n {2}type: feedback\n {2}modified: /)
    expect(file).not.toContain('originSessionId') // the editor is no session
    await createMemory(dir, { ...fields, name: 'Flat one', format: 'flat' })
    expect(readFileSync(join(dir, 'flat_one.md'), 'utf8')).not.toMatch(/modified|node_type/)
  })

  it('saving a memory as it is changes nothing, not even its modified stamp; a change bumps it', async () => {
    const dir = tempDir()
    const raw =
      '---\nname: deploy\ndescription: ship it\nmetadata:\n  type: project\n  modified: 2026-11-01T09:00:00.000Z\n---\n\nShip.\n'
    writeFile(join(dir, 'deploy.md'), raw)
    const rec = await readMemory(dir, 'deploy.md')
    const same = { name: 'deploy', description: 'ship it', type: 'project' as const, body: rec.body }
    const again = await updateMemory(dir, 'deploy.md', same, rec.hash, 'nested', { stamps: ['modified'] })
    expect(readFileSync(join(dir, 'deploy.md'), 'utf8')).toBe(raw)
    await updateMemory(dir, 'deploy.md', { ...same, body: 'Ship on Tuesdays.\n' }, again.hash, 'nested', {
      stamps: ['modified'],
    })
    const changed = readFileSync(join(dir, 'deploy.md'), 'utf8')
    expect(changed).toContain('Ship on Tuesdays.')
    expect(changed).not.toContain('2026-11-01T09:00:00.000Z')
  })
})
