import { readFileSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { getProjectTranscriptDir, getTeamMemPath } from '../src-main/core/paths/team-agent-paths.js'
import { reply, text, toolUse } from '../test/fake-anthropic/server.js'

import { gitRepo } from '../test/helpers/git-repo.js'
import { startTeamServer } from '../test/helpers/team-server.js'
import { writeFile } from '../test/helpers/temp-env.js'
import {
  editorText,
  fakeSession,
  fitsInWindow,
  memoryFile as memory,
  nav,
  openApp,
  setEditorText,
  SMALL_LOOKS,
  until,
  useBrowser,
} from './harness.js'
import { deployDayPair, openWithModel } from './worlds.js'

/**
 * The workspace's eight points (issue "A workspace as good as the editors people love"), each as a
 * user checks it, in the light and the dark theme at 1024×700. Larger cases of the same behaviour
 * run once at the default size in health, history, nothing-lost, workspace and workspace-ux.
 */

const browser = useBrowser()
const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 1)
const modelCalls = (fake: { requests: { path: string }[] }) =>
  fake.requests.filter((r) => r.path.startsWith('/v1/messages')).length

describe.each(SMALL_LOOKS)('workspace points, $theme theme at $width×$height', (look) => {
  it('1. Health groups 400 findings by kind in compact rows, draws only those in view, and fixes them all as one undoable change', async () => {
    const app = await openApp(
      browser(),
      {},
      (sb) => {
        const dir = getAutoMemPath(sb.ctx())
        writeFile(join(dir, 'kept.md'), memory('Kept', 'stays', 'body'))
        writeFile(
          join(dir, 'MEMORY.md'),
          '- [Kept](kept.md) — stays\n' +
            Array.from({ length: 400 }, (_, i) => `- [Gone ${i}](gone_${i}.md) — removed`).join('\n') +
            '\n',
        )
      },
      undefined,
      look,
    )
    const { page, sb } = app
    try {
      await nav(page, 'Health')
      const findings = page.getByRole('region', { name: 'Findings' })
      const head = findings.locator('[data-kind-group="dead-pointer"]')
      await head.getByRole('heading', { name: 'Pointer to a missing file · 400' }).waitFor()
      const rows = findings.locator('article[data-kind="dead-pointer"]')
      expect(await rows.count()).toBeLessThan(60)
      // Compact: one line each, several to a screen.
      const height = await rows.first().evaluate((el) => el.getBoundingClientRect().height)
      expect(height).toBeLessThan(56)
      // The actions look like buttons (a border or a fill), and nothing is cut at 1024 px.
      for (const name of ['Check again', 'Fix all 400: remove the pointers']) {
        const look = await page.getByRole('button', { name }).evaluate((el) => {
          const s = getComputedStyle(el)
          return { border: s.borderTopStyle, bg: s.backgroundColor, cursor: s.cursor }
        })
        expect(look.border !== 'none' || look.bg !== 'rgba(0, 0, 0, 0)', name).toBe(true)
      }
      await fitsInWindow(page, '.health-group-head button, .finding-line button, .pane-head button')

      await head.getByRole('button', { name: 'Fix all 400: remove the pointers' }).click()
      await page.getByRole('status').getByText('Fixed 400 findings in 1 file.').waitFor()
      const index = join(getAutoMemPath(sb.ctx()), 'MEMORY.md')
      expect(readFileSync(index, 'utf8')).toBe('- [Kept](kept.md) — stays\n')
      await page.getByRole('button', { name: 'Undo this fix' }).click()
      await page.getByRole('status').getByText('Undone: 1 file back to before the fix.').waitFor()
      expect(readFileSync(index, 'utf8').split('\n')).toHaveLength(402)
      // One file changed: one entry for the fix, one for its undo.
      await nav(page, 'History')
      const timeline = page.getByRole('list', { name: 'History entries' })
      await timeline.getByText('undone').waitFor()
      expect(await timeline.locator('li').count()).toBe(3) // first seen, the fix, its undo
    } finally {
      await app.close()
    }
  })

  it('2. Health makes no model call until the user asks, then says when it ran and what it cost', async () => {
    const { app, fake } = await openWithModel(browser(), deployDayPair, look)
    const { page } = app
    try {
      const line = page.getByTestId('contradiction-check')
      for (let visit = 0; visit < 3; visit++) {
        await nav(page, 'Health')
        await expect.poll(() => line.textContent()).toContain('not checked yet · 0 model calls so far')
        await nav(page, 'Memories')
      }
      expect(modelCalls(fake)).toBe(0)
      await nav(page, 'Health')
      fake.enqueue(reply(text('{"contradictions":[]}')))
      await line.getByRole('button', { name: 'Check 1 same-topic pair (one model call)' }).click()
      await expect.poll(() => line.textContent()).toMatch(/last checked now · 1 model call so far/)
      await fitsInWindow(page, '[data-testid="contradiction-check"] button')
      await nav(page, 'Memories')
      await nav(page, 'Health')
      await line.waitFor()
      expect(modelCalls(fake)).toBe(1)
    } finally {
      await app.close()
    }
  })

  it('3. Health and the recall preview say the same about a file git renamed, and after it is marked still true', async () => {
    const app = await openApp(
      browser(),
      {},
      (sb) => {
        const r = gitRepo(sb.project)
        r.put('src/db.ts', 'export const db = 1\n')
        r.commit('db', T0)
        const dir = getAutoMemPath(sb.ctx())
        const p = writeFile(
          join(dir, 'project_db.md'),
          memory('Database access', 'where database access lives', 'All queries go through `src/db.ts`.'),
        )
        utimesSync(p, (T0 + DAY) / 1000, (T0 + DAY) / 1000)
        writeFile(join(dir, 'MEMORY.md'), '- [Database access](project_db.md) — queries\n')
        r.git(['mv', 'src/db.ts', 'src/database.ts'])
        r.commit('rename db', T0 + 2 * DAY)
      },
      undefined,
      look,
    )
    const { page } = app
    try {
      const fact = 'src/db.ts, which moved to src/database.ts'
      await nav(page, 'Health')
      const finding = page
        .getByRole('region', { name: 'Findings' })
        .locator('article', { hasText: 'src/db.ts' })
      await until(async () => (await finding.innerText()).includes(fact))
      await fitsInWindow(page, '.finding-line button')
      await nav(page, 'Recall')
      await page.getByLabel('Query').fill('database queries')
      await page.getByRole('button', { name: 'Preview recall' }).click()
      const result = page.getByRole('region', { name: 'Recall result' })
      await until(async () => (await result.innerText()).includes(fact))

      // The user checked the code and says the memory still holds: neither says it any more.
      await nav(page, 'Health')
      await finding.getByRole('button', { name: 'Mark as still true' }).click()
      await until(async () => (await finding.count()) === 0)
      await nav(page, 'Recall')
      await page.getByLabel('Query').fill('database queries')
      await page.getByRole('button', { name: 'Preview recall' }).click()
      await until(async () => {
        const text = await result.innerText()
        return text.includes('All queries go through') && !text.includes(fact)
      })
    } finally {
      await app.close()
    }
  })

  it("4. the editor shows a memory's problems above its fields, and a new memory past the index cut offers to compact", async () => {
    const app = await openApp(
      browser(),
      {},
      (sb) => {
        const dir = getAutoMemPath(sb.ctx())
        writeFile(
          join(dir, 'broken.md'),
          '---\nname: Broken\ndescription: d\ntype: user\nlabel: x\n  nested: indented\n: nothing\n---\n\nBody.\n',
        )
        // 205 lines typed straight into the index: a new memory's line lands past the 200-line cut,
        // and compacting moves them out.
        const notes = Array.from(
          { length: 205 },
          (_, i) => `Note ${i}: a detail someone typed into the index.`,
        )
        writeFile(join(dir, 'MEMORY.md'), `# Memory\n\n${notes.join('\n')}\n`)
      },
      undefined,
      look,
    )
    const { page } = app
    try {
      await page.locator('[data-relpath="broken.md"]').click()
      const problems = page.getByRole('list', { name: 'Problems with this memory' })
      // The parser's message, at the file's line where it stopped.
      await until(async () =>
        (await problems.innerText()).includes(
          'The frontmatter is not valid YAML (line 5: Nested mappings are not allowed in compact mappings)',
        ),
      )
      // Above the fields: the problem's box ends before the Name field starts.
      const boxBottom = await problems.evaluate((el) => el.getBoundingClientRect().bottom)
      const nameTop = await page.getByLabel('Name').evaluate((el) => el.getBoundingClientRect().top)
      expect(boxBottom).toBeLessThanOrEqual(nameTop)

      await page.getByRole('button', { name: 'New memory' }).click()
      await page.getByLabel('Name').fill('Release freeze')
      await page.getByLabel('Description').fill('no deploys on Fridays')
      await setEditorText(page, 'Nothing ships on Fridays.')
      await until(async () => (await editorText(page)) === 'Nothing ships on Fridays.')
      await page.getByRole('button', { name: 'Create memory' }).click()
      const cut = page.getByRole('alert', { name: 'Past the index cut' })
      await cut.waitFor()
      // Where the user looks: above the fields, not below the editor.
      const cutBottom = await cut.evaluate((el) => el.getBoundingClientRect().bottom)
      const fieldsTop = await page
        .getByRole('group', { name: 'Properties' })
        .evaluate((el) => el.getBoundingClientRect().top)
      expect(cutBottom).toBeLessThanOrEqual(fieldsTop)
      await fitsInWindow(page, '.editor-pane button')
      await cut.getByRole('button', { name: 'Compact the index' }).click()
      await until(async () => (await cut.count()) === 0)
    } finally {
      await app.close()
    }
  })

  it('5. a consolidation that changes nothing leaves an activity line, not an empty proposal', async () => {
    const { app, fake } = await openWithModel(
      browser(),
      (sb) => {
        const dir = getAutoMemPath(sb.ctx())
        writeFile(join(dir, 'a.md'), memory('Alpha', 'first', 'Alpha body.'))
        writeFile(join(dir, 'MEMORY.md'), '- [Alpha](a.md) — first\n')
      },
      look,
    )
    const { page } = app
    try {
      await nav(page, 'Settings')
      await page.getByLabel(/Review mode/).check()
      await page.getByRole('button', { name: 'Save settings' }).click()
      await page.getByText('Saved', { exact: true }).waitFor()
      fake.enqueue(reply(text('Everything is already consolidated.')))
      await nav(page, 'Activity')
      await page.getByRole('button', { name: 'Dream now' }).click()
      await page
        .getByRole('region', { name: 'Consolidation' })
        .getByText(/Nothing to consolidate/)
        .waitFor()
      await page
        .getByRole('list', { name: 'Activity feed' })
        .getByText(/Nothing to consolidate/)
        .waitFor()
      await nav(page, 'Review inbox')
      await page.getByText('Inbox is empty').waitFor()
      expect(await page.locator('.proposal').count()).toBe(0)
    } finally {
      await app.close()
    }
  })

  it('6. team sync speaks once: the last-sync panel says when, which repo and server, and no toast contradicts it', async () => {
    const server = await startTeamServer()
    const token = await server.token('acme/shop')
    const app = await openApp(browser(), {}, undefined, undefined, look)
    const { page, sb } = app
    try {
      await nav(page, 'Team sync')
      await page.getByRole('switch', { name: 'Team memory' }).check()
      await page.locator('input[name=teamUrl]').fill(server.url)
      await page.locator('input[name=teamToken]').fill(token)
      await page.locator('input[name=teamRepo]').fill('acme/shop')
      writeFile(
        join(getTeamMemPath(sb.ctx({ teamMemorySwitch: true })), 'conventions.md'),
        memory('Conventions', 'shared rules', 'Use the real DB.'),
      )
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      const last = page.getByTestId('last-sync')
      await until(async () => (await last.innerText()).includes(`acme/shop on ${new URL(server.url).host}`))
      await page.getByRole('button', { name: 'Sync now' }).click()
      await until(async () => (await last.innerText()).includes('Up to date: nothing to pull or push.'))
      // The earlier push's toast is gone; nothing on screen says "pushed" beside "up to date".
      await until(async () => (await page.locator('.toast', { hasText: 'pushed' }).count()) === 0)
      await fitsInWindow(page, '[data-testid="last-sync"], .pane-head button')
    } finally {
      await app.close()
    }
  })

  it('7. words and numbers: counts agree, plurals and relative times read as words, an undone create says "undone", underscores show', async () => {
    const { app, fake } = await openWithModel(
      browser(),
      (sb) => {
        const dir = getAutoMemPath(sb.ctx())
        writeFile(
          join(dir, 'feedback_tests.md'),
          memory('Tests hit a real DB', 'never mock the DB', 'Use postgres.'),
        )
        writeFile(
          join(dir, 'MEMORY.md'),
          '- [Tests](feedback_tests.md) — real DB\n- [Gone](gone.md) — removed\n',
        )
      },
      look,
    )
    const { page, sb } = app
    try {
      // The picker counts what the list shows, also after a memory arrives from outside.
      writeFile(
        join(getAutoMemPath(sb.ctx()), 'user_role.md'),
        memory('Role', 'who the user is', 'Go engineer.'),
      )
      await until(async () => (await page.getByTestId('memory-count').innerText()) === '2')
      const picker = page.getByLabel('Workspace', { exact: true })
      await until(async () => (await picker.locator('option:checked').innerText()).endsWith('· 2'))

      // Plurals come from the language's rules: "1 error", never "error(s)".
      await nav(page, 'Health')
      await page.getByTestId('health-errors').waitFor()
      expect(await page.getByTestId('health-errors').innerText()).toBe('1 error')
      await nav(page, 'Activity')
      await page.getByRole('list', { name: 'Dream gates' }).waitFor()
      const activity = await page.locator('main').innerText()
      expect(activity).not.toMatch(/\(s\)|\d+\.\d+ ?h ago/)

      // A link keeps its underscores readable: the underline sits below the text's descenders.
      await nav(page, 'Health')
      const link = page.getByRole('region', { name: 'Findings' }).locator('.link-button').first()
      const [offset, size] = await link.evaluate((el) => {
        const s = getComputedStyle(el)
        return [parseFloat(s.textUnderlineOffset), parseFloat(s.fontSize)]
      })
      expect(offset).toBeGreaterThanOrEqual(size! * 0.25)

      // A memory an extraction created, then undone: history names it "undone", not "restored".
      fake.enqueue(
        reply(
          toolUse('Write', {
            file_path: join(getAutoMemPath(sb.ctx()), 'grafana.md'),
            content: memory('Dashboard', 'Checkout latency dashboard', 'grafana.internal/d/checkout'),
          }),
        ),
        reply(text('Saved the dashboard.')),
      )
      fakeSession(
        join(getProjectTranscriptDir(sb.ctx()), '0b7c2f3e-1111-4222-8333-444455556666.jsonl'),
      ).endTurn('the dashboard is grafana.internal/d/checkout')
      await nav(page, 'Activity')
      await page.getByRole('button', { name: 'Undo this run' }).click({ timeout: 15_000 })
      await page.getByText('Undone: 1 file back to before this run').waitFor()
      await nav(page, 'History')
      const undone = page
        .getByRole('list', { name: 'History entries' })
        .getByRole('button')
        .filter({ hasText: 'grafana.md' })
        .first()
      await expect.poll(() => undone.locator('.change').textContent()).toBe('undone')
      expect(await page.locator('main').innerText()).not.toMatch(/\(s\)/)
      await fitsInWindow(page, '.timeline-item .author')
    } finally {
      await app.close()
    }
  })

  it('8. layout and focus: author chips fit, settings badges sit inline with one Save at the bottom, and a modal keeps the keyboard', async () => {
    const app = await openApp(
      browser(),
      { MEMDIR_SELECTOR_MODEL: 'claude-test', MEMDIR_AGENT_MODEL: 'claude-test' },
      (sb) => {
        const dir = getAutoMemPath(sb.ctx())
        writeFile(join(dir, 'alpha.md'), memory('Alpha', 'first', 'Alpha body.'))
        writeFile(join(dir, 'beta.md'), memory('Beta', 'second', 'Beta body.'))
      },
      undefined,
      look,
    )
    const { page } = app
    try {
      await nav(page, 'History')
      await page.getByRole('list', { name: 'History entries' }).locator('.author').first().waitFor()
      await fitsInWindow(page, '.timeline-item .author')

      // Where the model fields are in the first frame that shows them: nothing above them may still
      // be loading, or they move down the page under the user's eyes (and cursor) when it arrives.
      await page.evaluate(() => {
        const seen = window as unknown as { firstModelTop?: number }
        const look = () => {
          const model = [...document.querySelectorAll('legend')].find((l) => l.textContent === 'Model')
          if (model) seen.firstModelTop = model.getBoundingClientRect().top + window.scrollY
          else requestAnimationFrame(look)
        }
        requestAnimationFrame(look)
      })
      await nav(page, 'Settings')
      const saves = page.getByRole('button', { name: 'Save settings' })
      await saves.waitFor()
      await page.getByRole('region', { name: 'Integrations' }).getByRole('table').waitFor()
      await new Promise((r) => setTimeout(r, 300))
      const [firstTop, settledTop] = await page.evaluate(() => [
        (window as unknown as { firstModelTop?: number }).firstModelTop,
        [...document.querySelectorAll('legend')]
          .find((l) => l.textContent === 'Model')!
          .getBoundingClientRect().top + window.scrollY,
      ])
      expect(firstTop).toBe(settledTop)
      expect(await saves.count()).toBe(1)
      // One Save, below every settings field: both read from one layout (the integrations panel above
      // fills in as its status arrives, moving everything below it between two separate reads).
      const [saveTop, lastField] = await page.evaluate(() => {
        const fields = document.querySelectorAll('.settings fieldset')
        const save = [...document.querySelectorAll('button')].find(
          (b) => b.textContent?.trim() === 'Save settings',
        )!
        return [save.getBoundingClientRect().top, fields[fields.length - 1]!.getBoundingClientRect().bottom]
      })
      expect(saveTop).toBeGreaterThanOrEqual(lastField!)
      // A source badge is the size of its words, not a bar across the field.
      const badges = page.locator('.settings label > .badge')
      expect(await badges.count()).toBeGreaterThan(0)
      for (const b of await badges.all()) {
        const [w, parent] = await b.evaluate((el) => [
          el.getBoundingClientRect().width,
          el.parentElement!.getBoundingClientRect().width,
        ])
        expect(w).toBeLessThan(parent! / 2)
      }
      await fitsInWindow(page, '.settings label > .badge')

      // The unsaved-changes dialog: Tab stays inside it, typing reaches nothing behind it.
      await nav(page, 'Memories')
      await page.locator('[data-relpath="alpha.md"]').click()
      await until(async () => (await editorText(page)).startsWith('Alpha body.'))
      await setEditorText(page, 'Alpha, edited.')
      await page.locator('[data-relpath="beta.md"]').click()
      const dialog = page.getByRole('dialog', { name: 'Unsaved changes' })
      await dialog.waitFor()
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab')
        expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true)
      }
      await page.keyboard.type('zzz')
      expect(await editorText(page)).toBe('Alpha, edited.')
      // The app's shortcuts wait too: Ctrl+S does not save behind the dialog, Ctrl+N starts nothing.
      const dir = getAutoMemPath(app.sb.ctx())
      const onDisk = readFileSync(join(dir, 'alpha.md'), 'utf8')
      await page.keyboard.press('Control+s')
      await page.keyboard.press('Control+n')
      await new Promise((r) => setTimeout(r, 300))
      expect(readFileSync(join(dir, 'alpha.md'), 'utf8')).toBe(onDisk)
      expect(await dialog.isVisible()).toBe(true)
      await fitsInWindow(page, '[role="dialog"] button')
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      expect(await editorText(page)).toBe('Alpha, edited.')
      expect(await page.getByRole('heading', { name: 'New memory' }).count()).toBe(0)
    } finally {
      await app.close()
    }
  })
})

describe("7. words and numbers in the user's language", () => {
  it("a memory's age in the list and the recall preview comes from Intl.RelativeTimeFormat, as every other relative time does", async () => {
    const app = await openApp(
      browser(),
      {},
      (sb) => {
        const file = join(getAutoMemPath(sb.ctx()), 'db.md')
        writeFile(file, memory('Database', 'the database we query', 'Postgres 16 on the db host.'))
        const threeDays = (Date.now() - 3 * DAY - 60_000) / 1000
        utimesSync(file, threeDays, threeDays)
      },
      undefined,
      { theme: 'light', width: 1360, height: 860, locale: 'de-DE' },
    )
    const { page } = app
    try {
      const age = page.locator('.mem-row .age')
      await expect.poll(() => age.innerText()).toBe('vor 3 Tagen')
      await nav(page, 'Recall')
      await page.getByLabel('Query').fill('database queries')
      await page.getByRole('button', { name: 'Preview recall' }).click()
      const result = page.getByRole('region', { name: 'Recall result' })
      await until(async () => (await result.innerText()).includes('saved vor 3 Tagen'))
    } finally {
      await app.close()
    }
  })
})
