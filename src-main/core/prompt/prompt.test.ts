import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { sandbox, tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { clearAutoMemPathCache, getAutoMemPath } from '../paths/auto-mem-path.js'
import { buildAgentMemoryPrompt } from './agent-memory.js'
import { buildMemoryLines, buildMemoryPrompt } from './build-memory-lines.js'
import { buildCombinedMemoryPrompt } from './combined.js'
import { appendDailyLogEntry, buildAssistantDailyLogPrompt, dailyLogRelPath } from './daily-log.js'
import { loadMemoryPrompt, loadMemoryPromptDetailed } from './load.js'

beforeEach(() => clearAutoMemPathCache())

const headings = (text: string) => text.split('\n').filter((l) => /^#{1,2} /.test(l))

describe('buildMemoryLines', () => {
  it('has the sections of SPEC §4 in order', () => {
    const text = buildMemoryPrompt({ displayName: 'auto memory', memoryDir: '/m/', indexContent: null })
    expect(headings(text)).toEqual([
      '# auto memory',
      '## Types of memory',
      '## What NOT to save',
      '## How to save memories',
      '## When to access memories',
      '## Before recommending from memory',
      '## Memory and other forms of persistence',
      '## MEMORY.md',
    ])
    expect(text).toContain('`/m/`')
    expect(text).toContain('do not run mkdir'.replace('do', 'Do'))
    expect(text).toMatch(/point-in-time observations/)
    expect(text).toMatch(/ignore memory[\s\S]*as if MEMORY\.md were empty/)
    expect(text).toMatch(/even when the user explicitly asks/)
    expect(text).toContain('currently empty')
    for (const t of ['user', 'feedback', 'project', 'reference']) expect(text).toContain(`### ${t}`)
  })

  it('puts the truncated index under ## MEMORY.md', () => {
    const index = Array.from({ length: 250 }, (_, i) => `- [m${i}](m${i}.md) — hook`).join('\n')
    const text = buildMemoryPrompt({ displayName: 'auto memory', memoryDir: '/m/', indexContent: index })
    expect(text).toContain('[m199]')
    expect(text).not.toContain('[m200]')
    expect(text).toContain('WARNING: MEMORY.md is 250 lines (limit: 200)')
  })

  it('agent memory skips the index step', () => {
    const text = buildAgentMemoryPrompt('planner', 'project', '/p/.claude/agent-memory/planner/')
    expect(text).not.toContain('Step 2')
    expect(text).not.toContain('## MEMORY.md')
    expect(text).toContain('# agent memory (planner)')
    expect(buildMemoryLines({ displayName: 'x', memoryDir: '/m/' }).join('\n')).toContain('Step 2')
  })
})

describe('combined private + team prompt', () => {
  it('routes scope per type and shows both indexes', () => {
    const text = buildCombinedMemoryPrompt({
      autoDir: '/m/',
      teamDir: '/m/team/',
      privateIndex: '- [Me](me.md) — role',
      teamIndex: null,
    })
    expect(text).toMatch(/### user[\s\S]*Scope: Always private/)
    expect(text).toMatch(/### feedback[\s\S]*Scope: Private by default[\s\S]*real DB/)
    expect(text).toMatch(/### project[\s\S]*Scope: Usually team/)
    expect(text).toMatch(/### reference[\s\S]*Scope: Usually team/)
    expect(text).toContain('## MEMORY.md (private)\n\n- [Me](me.md) — role')
    expect(text).toMatch(/## team\/MEMORY\.md \(team\)\n\nYour MEMORY\.md is currently empty/)
  })
})

describe('KAIROS daily log', () => {
  it('describes the path pattern, not a literal date', () => {
    const text = buildAssistantDailyLogPrompt('/m/')
    expect(text).toContain('/m/logs/YYYY/MM/YYYY-MM-DD.md')
    const today = new Date()
    expect(text).not.toContain(dailyLogRelPath(today).slice(-13, -3))
    expect(text).not.toContain(`logs/${today.getFullYear()}/`)
    expect(text).not.toContain('## MEMORY.md')
  })

  it('appends entries to logs/YYYY/MM/YYYY-MM-DD.md', async () => {
    const dir = tempDir()
    const day = new Date(2026, 11, 2, 9, 5)
    expect(dailyLogRelPath(day)).toBe(join('logs', '2026', '12', '2026-12-02.md'))
    const p = await appendDailyLogEntry(dir, 'learned the deploy   script', day)
    await appendDailyLogEntry(dir, 'second', new Date(2026, 11, 2, 17, 40))
    expect(readFileSync(p, 'utf8')).toBe(
      '# 2026-12-02\n\n- 09:05 learned the deploy script\n- 17:40 second\n',
    )
  })
})

describe('loadMemoryPrompt', () => {
  it('normal mode creates the dir and includes the index', async () => {
    const sb = sandbox()
    const ctx = sb.ctx()
    writeFile(join(getAutoMemPath(ctx), 'MEMORY.md'), '- [A](a.md) — alpha\n')
    const r = await loadMemoryPromptDetailed(ctx)
    expect(r).toMatchObject({ enabled: true, mode: 'normal' })
    expect(r.enabled && r.prompt).toContain('- [A](a.md) — alpha')
  })

  it('dispatches to team and KAIROS modes', async () => {
    const team = sandbox({ MEMDIR_TEAM_MEMORY: '1' })
    expect(await loadMemoryPromptDetailed(team.ctx())).toMatchObject({ mode: 'team' })
    const kairos = sandbox({ MEMDIR_KAIROS: '1', MEMDIR_TEAM_MEMORY: '1' })
    expect(await loadMemoryPromptDetailed(kairos.ctx())).toMatchObject({ mode: 'kairos' })
  })

  it('returns null when disabled', async () => {
    const sb = sandbox({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' })
    expect(await loadMemoryPrompt(sb.ctx())).toBeNull()
  })
})
