import { describe, expect, it } from 'vitest'
import { buildConsolidationPrompt } from './consolidation-prompt.js'

describe('buildConsolidationPrompt', () => {
  const base = { memoryDir: '/m', transcriptDir: '/t', sessionCount: 5, today: '2026-12-03' }

  it('gives the agent what the health check found, to fix first', () => {
    const p = buildConsolidationPrompt({
      ...base,
      findings: [
        'MEMORY.md: Points at gone.md, which does not exist',
        'a.md: Says nearly the same as b.md (80% …)',
      ],
    })
    expect(p).toContain('## Found by a health check')
    expect(p).toContain('- MEMORY.md: Points at gone.md, which does not exist')
    expect(p.indexOf('## Found by a health check')).toBeLessThan(p.indexOf('## Phase 1'))
  })

  it('caps the list and says how many more there are; no section without findings', () => {
    const many = Array.from({ length: 55 }, (_, i) => `m${i}.md: No description`)
    const p = buildConsolidationPrompt({ ...base, findings: many })
    expect(p).toContain('- m39.md: No description')
    expect(p).not.toContain('- m40.md')
    expect(p).toContain('…and 15 more')
    expect(buildConsolidationPrompt(base)).not.toContain('health check')
  })
})
