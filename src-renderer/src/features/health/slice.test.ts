import { describe, expect, it } from 'vitest'
import type { HealthView } from '../../../../src-shared/types'
import { createMemdirStore } from '../../app/create-store'
import { fakeClient, memoryDeps } from '../../test/fake-client'

const report = (n: number) =>
  ({ findings: Array.from({ length: n }, (_, i) => ({ id: `f${i}` })) }) as HealthView

describe('health slice', () => {
  it('a check answered late never replaces a newer one; the model’s verdict is shown when it comes', async () => {
    const answers: ((n: number) => void)[] = []
    const { client } = fakeClient({
      'health/get': () => new Promise((resolve) => answers.push((n) => resolve(report(n)))),
      'health/checkContradictions': () => new Promise((resolve) => answers.push((n) => resolve(report(n)))),
    })
    const store = createMemdirStore(memoryDeps(client))
    const older = store.getState().refreshHealth()
    const newer = store.getState().refreshHealth()
    answers[1]!(1)
    await newer
    answers[0]!(3)
    await older
    expect(store.getState().health?.findings).toHaveLength(1)

    // The user asks the model; a plain check starts meanwhile (a file changed) and answers first.
    const asked = store.getState().checkContradictions()
    const plain = store.getState().refreshHealth()
    answers[3]!(1)
    await plain
    answers[2]!(2)
    await asked
    expect(store.getState().health?.findings).toHaveLength(2)
  })

  it('a fix that became a proposal (review mode) updates the inbox count and the report', async () => {
    let findings = 2
    let proposals = 0
    const { client, calls } = fakeClient({
      'health/get': async () => report(findings),
      'health/fix': async () => {
        proposals++
        return { message: 'Proposed', changed: [], proposalId: 'p1' }
      },
      'review/list': async () => Array.from({ length: proposals }, () => ({})) as never,
    })
    const store = createMemdirStore(memoryDeps(client))
    await store.getState().refreshHealth()
    findings = 1
    const r = await store.getState().fixFinding('f0', 'remove-pointer')
    expect(r.proposalId).toBe('p1')
    expect(store.getState().reviewCount).toBe(1)
    expect(store.getState().health?.findings).toHaveLength(1)
    expect(calls.find((c) => c.method === 'health/fix')?.args).toEqual({ id: 'f0', fix: 'remove-pointer' })
  })

  it('keeps the last report when a check fails over a dead connection', async () => {
    let up = true
    const { client } = fakeClient({
      'health/get': async () => {
        if (up) return report(3)
        const { RpcFailure } = await import('../../../../src-shared/errors')
        throw new RpcFailure({ code: 'DISCONNECTED', message: 'gone' })
      },
    })
    const store = createMemdirStore(memoryDeps(client))
    await store.getState().refreshHealth()
    up = false
    await store.getState().refreshHealth()
    expect(store.getState().health?.findings).toHaveLength(3)
  })

  it('"Fix all" sends the kind and the fix, then shows the new report', async () => {
    let findings = 60
    const { client, calls } = fakeClient({
      'health/get': async () => report(findings),
      'health/fixAll': async () => {
        findings = 0
        return {
          message: 'Fixed 60 findings in 1 file',
          changed: ['MEMORY.md'],
          runId: 'r1',
          failed: [],
          applied: [],
        }
      },
    })
    const store = createMemdirStore(memoryDeps(client))
    await store.getState().fixAll('dead-pointer', 'remove-pointer')
    expect(calls[0]).toEqual({
      method: 'health/fixAll',
      args: { kind: 'dead-pointer', fix: 'remove-pointer' },
    })
    expect(store.getState().health?.findings).toEqual([])
  })
})
