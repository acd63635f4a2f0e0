import { describe, expect, it } from 'vitest'
import { findCodeMentions } from './code-mentions.js'

describe('what a memory says about the code', () => {
  it('finds path candidates (relative, absolute, in the home dir), scripts and symbols, and nothing of a URL', () => {
    const m = findCodeMentions(
      'The DB layer is `src/db.ts` (see apps/web/ and https://github.com/acme/app/blob/main/src/x.ts, ~/notes/a.md, ' +
        'file:///srv/app/y.ts, /srv/app/src/main.ts). Run `npm run build` then `make ship`; `createHost()` wires it, n/a, a//b.',
    )
    // Candidates only: whether one is in the repository is git's to say (path-staleness.ts).
    expect(m.paths.sort()).toEqual(['/srv/app/src/main.ts', 'apps/web/', 'src/db.ts', '~/notes/a.md'])
    expect(m.commands.map((c) => `${c.tool} ${c.name}`)).toEqual(['npm build', 'make ship'])
    expect(m.symbols).toEqual(['createHost'])
  })

  it('finds a path written on Windows as written, and nothing of an escape or a mixed spelling', () => {
    const m = findCodeMentions(
      'Config in `src\\config\\app.ts`, builds in C:\\work\\app\\dist\\, .\\scripts\\run.sh; split on \\n; odd src/a\\b.ts.',
    )
    expect(m.paths.sort()).toEqual(['C:\\work\\app\\dist\\', 'scripts\\run.sh', 'src\\config\\app.ts'])
  })

  it('reads a body built to make its patterns backtrack without stalling (`a.a.a.…` took seconds)', () => {
    const started = performance.now()
    for (const body of [
      'a.'.repeat(100_000),
      'a' + ' '.repeat(200_000) + '://',
      '`a.'.repeat(50_000),
      'a\\'.repeat(100_000),
      'C:\\a.'.repeat(50_000),
    ])
      findCodeMentions(body)
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
