import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { SyncBase } from './sync-base.js'

describe('the team sync base file', () => {
  it('keeps the pushes not heard back from beside the agreed keys, and writes them only while there are some', async () => {
    const path = join(tempDir(), 'team-sync', 'base.json')
    const base = new SyncBase(path)
    await base.save(new Map([['a.md', 'sum-a']]), new Map([['b.md', 'sum-b']]))
    expect(await base.loadState()).toEqual({
      keys: new Map([['a.md', 'sum-a']]),
      pushing: new Map([['b.md', 'sum-b']]),
    })
    await base.save(new Map([['a.md', 'sum-a']]), new Map())
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ keys: { 'a.md': 'sum-a' } })
  })

  it('reads a base an older Memdir wrote (keys only) as having no pushes in flight', async () => {
    const path = join(tempDir(), 'base.json')
    writeFileSync(path, JSON.stringify({ keys: { 'a.md': 'sum-a' } }))
    expect(await new SyncBase(path).loadState()).toEqual({
      keys: new Map([['a.md', 'sum-a']]),
      pushing: new Map(),
    })
  })

  it('takes nothing from fields that are not objects, and refuses a file that is not JSON', async () => {
    const path = join(tempDir(), 'base.json')
    writeFileSync(path, JSON.stringify({ keys: 'a.md', pushing: ['sum-b'] }))
    expect(await new SyncBase(path).loadState()).toEqual({ keys: new Map(), pushing: new Map() })
    writeFileSync(path, '{"keys": {')
    await expect(new SyncBase(path).loadState()).rejects.toThrow(/corrupt/)
  })
})
