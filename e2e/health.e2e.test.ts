import { readFileSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { gitRepo } from '../test/helpers/git-repo.js'
import { writeFile } from '../test/helpers/temp-env.js'
import { memoryFile as memory, nav, useBrowser, openApp, screenshot, until } from './harness.js'
import { deployDayPair, openWithModel } from './worlds.js'
import { reply, text } from '../test/fake-anthropic/server.js'

const browser = useBrowser()

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)

describe('Health view', () => {
  it('lists findings against the index and the git history; a fix removes its finding and is in history', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const r = gitRepo(sb.project)
      r.put('src/app.ts', 'export const app = 1\n')
      r.commit('initial', T0)
      const dir = getAutoMemPath(sb.ctx())
      const p = writeFile(
        join(dir, 'entry.md'),
        memory('App entry', 'where the app starts', 'Starts in `src/app.ts`.'),
      )
      utimesSync(p, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
      writeFile(
        join(dir, 'MEMORY.md'),
        '- [App entry](entry.md) — start\n- [Old](old.md) — removed long ago\n',
      )
      for (let k = 1; k <= 3; k++) {
        r.put('src/app.ts', `export const app = ${k + 1}\n`)
        r.commit(`rework app ${k}`, T0 + (1 + k) * DAY)
      }
    })
    const { page, sb } = app
    try {
      // The list shows which memories have problems before the Health view is opened.
      await page.locator('[data-relpath="entry.md"] [data-testid="health-badge"]').waitFor()
      expect(await page.getByTestId('health-count').innerText()).toBe('1')

      await nav(page, 'Health')
      const findings = page.locator('[aria-label="Findings"]')
      const dead = findings.locator('article[data-kind="dead-pointer"]')
      const stale = findings.locator('article[data-kind="path-changed"]')
      await dead.waitFor()
      expect(await page.getByText(/checked against MEMORY\.md/).innerText()).toContain(
        "1 memory checked against MEMORY.md, each other and the project's git history (4 commits).",
      )
      expect(await dead.innerText()).toContain('Points at old.md, which does not exist')
      expect(await stale.innerText()).toContain(
        'Mentions src/app.ts, changed in 3 commits since this memory was saved',
      )
      await stale.getByText('Evidence').click()
      expect(await stale.innerText()).toContain('rework app 3')
      await screenshot(page, 'health')

      await dead.getByRole('button', { name: 'Remove pointer' }).click()
      await page.getByRole('status').getByText('Removed the pointer to old.md (in history).').waitFor()
      await until(async () => (await dead.count()) === 0)
      expect(readFileSync(join(getAutoMemPath(sb.ctx()), 'MEMORY.md'), 'utf8')).toBe(
        '- [App entry](entry.md) — start\n',
      )

      await stale.getByRole('button', { name: 'Mark as still true' }).click()
      await until(async () => (await stale.count()) === 0)
      await page.getByText('Nothing to fix').waitFor()
      expect(await page.getByTestId('health-count').count()).toBe(0)

      // Both fixes are the user's changes in history.
      await nav(page, 'History')
      const timeline = page.getByRole('list', { name: 'History entries' })
      await timeline.getByText('marked still true').waitFor()
      expect(await timeline.innerText()).toContain('MEMORY.md')
    } finally {
      await app.close()
    }
  })

  it('asks the model about contradictions only when the user clicks, and says what it cost', async () => {
    const { app, fake } = await openWithModel(browser(), deployDayPair)
    const { page } = app
    try {
      // Visiting Health, leaving and coming back: no model call.
      await nav(page, 'Health')
      const line = page.getByTestId('contradiction-check')
      await expect.poll(() => line.textContent()).toContain('not checked yet · 0 model calls so far')
      await nav(page, 'Memories')
      await nav(page, 'Health')
      await page.getByRole('button', { name: 'Check again' }).click()
      await line.waitFor()
      expect(fake.requests.filter((r) => r.path.startsWith('/v1/messages'))).toHaveLength(0)

      fake.enqueue(
        reply(text('{"contradictions":[{"pair":0,"explanation":"a.md says Tuesdays, b.md says Fridays"}]}')),
      )
      await line.getByRole('button', { name: 'Check 1 same-topic pair (one model call)' }).click()
      await page.locator('[aria-label="Findings"]').locator('article[data-kind="contradiction"]').waitFor()
      await expect
        .poll(() => line.textContent())
        .toMatch(/last checked now · 1 model call so far\. Every same-topic pair is checked\./)
      await page.getByRole('button', { name: 'Check again' }).click()
      await nav(page, 'Memories')
      await nav(page, 'Health')
      await line.waitFor()
      expect(fake.requests.filter((r) => r.path.startsWith('/v1/messages'))).toHaveLength(1)
    } finally {
      await app.close()
    }
  })

  it('groups findings by kind with counts, draws only the rows in view of 3,000, and "Fix all" fixes them as one change that "Undo this fix" brings back', async () => {
    let indexBefore = ''
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      writeFile(join(dir, 'kept.md'), memory('Kept', 'stays', 'body'))
      indexBefore =
        '- [Kept](kept.md) — stays\n' +
        Array.from({ length: 3000 }, (_, i) => `- [Gone ${i}](gone_${i}.md) — removed long ago`).join('\n') +
        '\n'
      writeFile(join(dir, 'MEMORY.md'), indexBefore)
    })
    const { page, sb } = app
    try {
      await nav(page, 'Health')
      const findings = page.getByRole('region', { name: 'Findings' })
      const head = findings.locator('[data-kind-group="dead-pointer"]')
      await head.getByRole('heading', { name: 'Pointer to a missing file · 3,000' }).waitFor()
      // Only the rows in view (and a few either side) are in the page.
      const rows = findings.locator('article[data-kind="dead-pointer"]')
      expect(await rows.count()).toBeGreaterThan(5)
      expect(await rows.count()).toBeLessThan(80)
      // The last one is a scroll away, and is drawn once there.
      await findings.evaluate((el) => el.scrollTo(0, el.scrollHeight))
      await findings.getByRole('article', { name: /3,000 of 3,000: MEMORY\.md/ }).waitFor()
      expect(await rows.count()).toBeLessThan(80)
      await findings.evaluate((el) => el.scrollTo(0, 0))
      // A kind folds away to its heading.
      await head.getByRole('button', { name: 'Hide Pointer to a missing file' }).click()
      expect(await rows.count()).toBe(0)
      await head.getByRole('button', { name: 'Show Pointer to a missing file' }).click()
      await rows.first().waitFor()
      await screenshot(page, 'health-groups')

      await head.getByRole('button', { name: 'Fix all 3,000: remove the pointers' }).click()
      await page.getByRole('status').getByText('Fixed 3,000 findings in 1 file.').waitFor()
      const index = join(getAutoMemPath(sb.ctx()), 'MEMORY.md')
      expect(readFileSync(index, 'utf8')).toBe('- [Kept](kept.md) — stays\n')
      await until(async () => (await head.count()) === 0)

      await page.getByRole('button', { name: 'Undo this fix' }).click()
      await page.getByRole('status').getByText('Undone: 1 file back to before the fix.').waitFor()
      expect(readFileSync(index, 'utf8')).toBe(indexBefore)
      await head.getByRole('heading', { name: 'Pointer to a missing file · 3,000' }).waitFor()
    } finally {
      await app.close()
    }
  })

  it('shows a finding about a memory with a 190-character file name whole, inside its row', async () => {
    const file = `${'y'.repeat(190)}.md`
    const app = await openApp(browser(), {}, (sb) => {
      writeFile(
        join(getAutoMemPath(sb.ctx()), file),
        memory('Long', 'a memory with a long file name', 'body'),
      )
    })
    const { page } = app
    try {
      await nav(page, 'Health')
      const row = page.getByRole('region', { name: 'Findings' }).locator('article[data-kind="unindexed"]')
      const link = row.getByRole('button', { name: file })
      await link.waitFor()
      const inside = await link.evaluate((el) => {
        const box = el.closest('article')!.getBoundingClientRect()
        const r = el.getBoundingClientRect()
        return el.scrollWidth <= el.clientWidth && r.right <= box.right && r.right <= window.innerWidth
      })
      expect(inside).toBe(true)
    } finally {
      await app.close()
    }
  })

  it('lists in the editor every issue its row counts: a memory missing from MEMORY.md says so there too', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      writeFile(
        join(dir, 'creds.md'),
        memory('Creds', 'staging access', `key: sk-ant-api03-${'Q1w2'.repeat(20)}`),
      )
      writeFile(join(dir, 'MEMORY.md'), '# Memory\n')
    })
    const { page } = app
    try {
      const badge = page.locator('[data-relpath="creds.md"]').getByTestId('health-badge')
      await until(async () => (await badge.count()) > 0 && (await badge.innerText()) === '2 issues')
      await page.locator('[data-relpath="creds.md"]').click()
      const problems = page.getByRole('list', { name: 'Problems with this memory' }).getByRole('listitem')
      await until(async () => (await problems.count()) === 2)
      const said = (await problems.allInnerTexts()).join('\n')
      expect(said).toContain('Contains a secret')
      expect(said).toContain('Not in MEMORY.md')
    } finally {
      await app.close()
    }
  })

  it("shows a memory's problems above its fields: broken YAML with its line, a secret with its rule, a moved path with its new name", async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const r = gitRepo(sb.project)
      r.put('src/db.ts', 'export const db = 1\n')
      r.commit('db', T0)
      const dir = getAutoMemPath(sb.ctx())
      writeFile(
        join(dir, 'broken.md'),
        '---\nname: Broken\n  description: indented\n: nothing\n---\n\nBody.\n',
      )
      writeFile(
        join(dir, 'creds.md'),
        memory('Creds', 'staging access', `key: sk-ant-api03-${'Q1w2'.repeat(20)}`),
      )
      const p = writeFile(join(dir, 'db.md'), memory('DB', 'where the connection is made', 'In `src/db.ts`.'))
      utimesSync(p, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
      r.git(['mv', 'src/db.ts', 'src/database.ts'])
      r.commit('rename', T0 + 2 * DAY)
    })
    const { page } = app
    try {
      const problems = page.getByRole('list', { name: 'Problems with this memory' })
      await page.getByTestId('health-count').waitFor()
      await page.locator('[data-relpath="broken.md"]').click()
      await expect
        .poll(() => problems.innerText())
        .toContain(
          'The frontmatter is not valid YAML (line 2: Nested mappings are not allowed in compact mappings)',
        )
      await page.locator('[data-relpath="creds.md"]').click()
      await expect.poll(() => problems.innerText()).toContain('Contains a secret')
      expect(await problems.innerText()).toContain('line 7: Anthropic API key')
      await page.locator('[data-relpath="db.md"]').click()
      await expect
        .poll(() => problems.innerText())
        .toContain('Mentions src/db.ts, which moved to src/database.ts')
      await screenshot(page, 'editor-problems')
    } finally {
      await app.close()
    }
  })
})
