import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { HealthChecker } from './health-checker.js'

const mem = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`

describe('contradictions (with a model)', () => {
  it('asks the model only when asked, about same-topic memories, once per content', async () => {
    const { fakeModel } = await import('../../../test/helpers/model.js')
    const { reply, text } = await import('../../../test/fake-anthropic/server.js')
    const { fake, client } = await fakeModel()
    const dir = tempDir()
    writeFile(
      join(dir, 'a.md'),
      mem('Deploy day', 'which weekday production deploys happen', 'We deploy on Tuesdays.'),
    )
    writeFile(
      join(dir, 'b.md'),
      mem('Production deploy schedule', 'weekday for production deploys', 'Deploys go out on Fridays.'),
    )
    writeFile(join(dir, 'c.md'), mem('Code style', 'early returns', 'Prefer early returns.'))
    writeFile(
      join(dir, 'MEMORY.md'),
      ['a', 'b', 'c'].map((x) => `- [${x}](${x}.md) — ${x}`).join('\n') + '\n',
    )
    fake.enqueue(
      reply(text('{"contradictions":[{"pair":0,"explanation":"a.md says Tuesdays, b.md says Fridays"}]}')),
    )
    const checker = new HealthChecker({ memoryDir: dir, model: { client, model: 'claude-test' } })
    // A plain report (a Health visit) costs no model call, and says what is left to check.
    const visit = await checker.check()
    expect(fake.requests).toHaveLength(0)
    expect(visit.contradictions).toEqual({ lastRunAt: null, calls: 0, unchecked: 1 })
    expect(visit.findings.map((f) => f.kind)).toEqual([])
    const report = await checker.check({ askModel: true })
    expect(report.contradictions).toMatchObject({ calls: 1, unchecked: 0, lastRunAt: expect.any(Number) })
    expect(report.findings.map((f) => [f.kind, f.path, f.other, f.message])).toEqual([
      ['contradiction', 'a.md', 'b.md', 'Contradicts b.md: a.md says Tuesdays, b.md says Fridays'],
    ])
    const asked = JSON.stringify(fake.requests[0]!.body.messages)
    expect(asked).toContain('We deploy on Tuesdays.')
    expect(asked).not.toContain('Prefer early returns.') // not the same topic: never sent
    // Unchanged memories are not asked about again: not on a visit, not when asked, not when a
    // file is only touched; the finding stays.
    expect((await checker.check()).findings.map((f) => f.kind)).toEqual(['contradiction'])
    await checker.check({ askModel: true })
    const { utimesSync } = await import('node:fs')
    utimesSync(join(dir, 'a.md'), new Date(), new Date(Date.now() + 5000))
    checker.invalidate(['a.md'])
    expect((await checker.check({ askModel: true })).contradictions).toMatchObject({ calls: 1, unchecked: 0 })
    expect(fake.requests).toHaveLength(1)
    // New content is a new question.
    writeFile(
      join(dir, 'a.md'),
      mem('Deploy day', 'which weekday production deploys happen', 'We deploy on Mondays.'),
    )
    checker.invalidate(['a.md'])
    expect((await checker.check()).contradictions).toMatchObject({ calls: 1, unchecked: 1 })
    fake.enqueue(reply(text('{"contradictions":[]}')))
    const after = await checker.check({ askModel: true })
    expect(after.contradictions).toMatchObject({ calls: 2, unchecked: 0 })
    expect(after.findings.map((f) => f.kind)).toEqual([])
  })

  it('a failed model call is reported, and the rest of the check stands', async () => {
    const { fakeModel } = await import('../../../test/helpers/model.js')
    const { failWith } = await import('../../../test/fake-anthropic/server.js')
    const { fake, client } = await fakeModel()
    const dir = tempDir()
    writeFile(join(dir, 'a.md'), mem('Deploy day', 'which weekday production deploys happen', 'Tuesdays.'))
    writeFile(
      join(dir, 'b.md'),
      mem('Production deploy schedule', 'weekday for production deploys', 'Fridays.'),
    )
    fake.enqueue(failWith(400, {}, 'bad model'))
    const report = await new HealthChecker({
      memoryDir: dir,
      model: { client, model: 'claude-test' },
    }).check({ askModel: true })
    expect(report.contradictions).toMatchObject({ failed: expect.stringContaining('bad model') })
    expect(report.findings.map((f) => f.kind)).toEqual(['unindexed', 'unindexed'])
  })
})
