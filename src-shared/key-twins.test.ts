import { describe, expect, it } from 'vitest'
import { findKeyTwin } from './key-twins.js'

describe('keys that cannot live side by side on every file system', () => {
  it.each([
    [
      ['Deploy.md'],
      ['deploy.md'],
      'Deploy.md',
      'deploy.md and Deploy.md would be one file on macOS and Windows',
    ],
    [['café.md'], ['CAFÉ.md'], 'café.md', 'CAFÉ.md and café.md would be one file on macOS and Windows'],
    [['Ops/a.md'], ['ops/b.md'], 'Ops/a.md', 'ops and Ops would be one folder on macOS and Windows'],
    [
      ['x/Ops/a.md'],
      ['x/ops/b.md'],
      'x/Ops/a.md',
      'x/ops and x/Ops would be one folder on macOS and Windows',
    ],
    [['a.md'], ['a.md/b.md'], 'a.md', 'a.md is a file there, and a.md/b.md needs a folder of that name'],
    [
      ['notes.md/b.md'],
      ['Notes.md'],
      'notes.md/b.md',
      'notes.md is a folder there, and Notes.md needs a file of that name',
    ],
    [[], ['a/x.md', 'A/y.md'], 'a/x.md', 'A and a would be one folder on macOS and Windows'],
  ])('%j then %j: clashes with %s', (existing, incoming, other, why) => {
    expect(findKeyTwin(existing, incoming)).toEqual({ key: incoming.at(-1), existing: other, why })
  })

  it('takes new files in a held folder of the same spelling, updates of held keys, and unrelated names', () => {
    expect(
      findKeyTwin(['ops/a.md', 'Deploy.md'], ['ops/b.md', 'ops/deep/c.md', 'Deploy.md', 'deploys.md']),
    ).toBeUndefined()
    // An older server let a twin in: updating either stored key still fits.
    expect(findKeyTwin(['A.md', 'a.md'], ['a.md', 'A.md'])).toBeUndefined()
  })
})
