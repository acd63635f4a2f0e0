import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { writeFile } from '../test/helpers/temp-env.js'
import { memoryFile as memory, useBrowser, openApp, until, editorText, setEditorText } from './harness.js'

const browser = useBrowser()

describe('nothing lost in the editor', () => {
  it('switching memory, "New memory", closing the editor and switching workspace ask Save / Discard / Cancel', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      writeFile(join(dir, 'alpha.md'), memory('Alpha', 'first', 'Alpha body.'))
      writeFile(join(dir, 'beta.md'), memory('Beta', 'second', 'Beta body.'))
    })
    const { page } = app
    const dir = getAutoMemPath(app.sb.ctx())
    const dialog = page.getByRole('dialog', { name: 'Unsaved changes' })
    try {
      await page.locator('[data-relpath="alpha.md"]').click()
      // The edit replaces the loaded body, so wait for it before typing.
      await until(async () => (await editorText(page)).startsWith('Alpha body.'))
      await setEditorText(page, 'Alpha, edited and not saved.')
      await until(async () => (await editorText(page)) === 'Alpha, edited and not saved.')

      // Cancel keeps the edit on screen.
      await page.locator('[data-relpath="beta.md"]').click()
      await dialog.waitFor()
      // The dialog keeps the keyboard: Tab and Shift+Tab cycle through its buttons, and typing
      // reaches nothing behind it.
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '')
      const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))
      const seen: string[] = []
      for (let i = 0; i < 4; i++) {
        seen.push(await focused())
        expect(await inDialog()).toBe(true)
        await page.keyboard.press('Tab')
      }
      expect(seen).toEqual(['Save', 'Discard', 'Cancel', 'Save'])
      // (the fourth Tab went on to Discard) …and Shift+Tab from the first wraps to the last.
      await page.keyboard.press('Shift+Tab')
      expect(await focused()).toBe('Save')
      await page.keyboard.press('Shift+Tab')
      expect(await focused()).toBe('Cancel')
      await page
        .locator('.cm-content')
        .focus({ timeout: 2000 })
        .catch(() => undefined)
      expect(await inDialog()).toBe(true)
      await page.keyboard.type('zzz')
      expect(await editorText(page)).toBe('Alpha, edited and not saved.')
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      expect(await editorText(page)).toBe('Alpha, edited and not saved.')

      // Escape cancels too.
      await page.getByRole('button', { name: 'Close editor' }).click()
      await dialog.waitFor()
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
      expect(await editorText(page)).toBe('Alpha, edited and not saved.')

      // Save writes it, then goes where the user was going.
      await page.locator('[data-relpath="beta.md"]').click()
      await dialog.getByRole('button', { name: 'Save' }).click()
      await until(() => readFileSync(join(dir, 'alpha.md'), 'utf8').includes('Alpha, edited and not saved.'))
      await until(async () => (await editorText(page)) === 'Beta body.\n')

      // Discard drops it and goes on: "New memory".
      await setEditorText(page, 'Beta, to be thrown away.')
      await page.getByRole('button', { name: 'New memory' }).first().click()
      await dialog.getByRole('button', { name: 'Discard' }).click()
      await page.getByRole('heading', { name: 'New memory' }).waitFor()
      expect(readFileSync(join(dir, 'beta.md'), 'utf8')).toContain('Beta body.')

      // Switching workspace with a dirty draft asks as well.
      await page.locator('input[name=name]').fill('Draft')
      const other = app.sb.root + '/work/other'
      const { mkdirSync } = await import('node:fs')
      mkdirSync(other, { recursive: true })
      await page.getByLabel('Open a project folder').fill(other)
      await page.getByLabel('Open a project folder').press('Enter')
      await dialog.waitFor()
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      expect(await page.locator('input[name=name]').inputValue()).toBe('Draft')
    } finally {
      await app.close()
    }
  })

  it('leaving the page (closing the tab, reloading) with unsaved edits is held by the browser', async () => {
    const app = await openApp(browser(), {}, (sb) =>
      writeFile(join(getAutoMemPath(sb.ctx()), 'alpha.md'), memory('Alpha', 'first', 'Alpha body.')),
    )
    const { page } = app
    try {
      await page.locator('[data-relpath="alpha.md"]').click()
      // Typed by hand: browsers only ask on unload after the user interacted with the page.
      await page.getByLabel('Content').click()
      await page.keyboard.press('End')
      await page.keyboard.type(' unsaved')
      const asked = new Promise<string>((resolve) =>
        page.once('dialog', (d) => {
          resolve(d.type())
          void d.dismiss() // stay on the page
        }),
      )
      // Headless Chromium shows the unload prompt for a navigation, not for a scripted tab close:
      // leave the page the way a reload or a link would.
      const url = page.url()
      await page.goto('about:blank').catch(() => undefined)
      expect(await asked).toBe('beforeunload')
      expect(page.url()).toBe(url)
      expect(await editorText(page)).toContain('unsaved')
    } finally {
      await app.close()
    }
  })

  it('restoring a deleted memory brings back its MEMORY.md line where it was', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      writeFile(join(dir, 'a.md'), memory('A', 'first', 'a'))
      writeFile(join(dir, 'b.md'), memory('B', 'second', 'b'))
      writeFile(join(dir, 'c.md'), memory('C', 'third', 'c'))
      writeFile(join(dir, 'MEMORY.md'), '- [A](a.md) — first\n- [B](b.md) — second\n- [C](c.md) — third\n')
    })
    const { page } = app
    const dir = getAutoMemPath(app.sb.ctx())
    const index = () => readFileSync(join(dir, 'MEMORY.md'), 'utf8')
    try {
      await page.locator('[data-relpath="b.md"]').click()
      await page.getByRole('button', { name: 'Delete…' }).click()
      await page.getByRole('button', { name: 'Delete', exact: true }).click()
      await until(() => !existsSync(join(dir, 'b.md')) && !index().includes('(b.md)'))
      await page.getByRole('navigation').getByRole('button', { name: 'History' }).click()
      await page.locator('.timeline-item', { hasText: 'deleted' }).first().click()
      await page.getByRole('button', { name: 'Restore the deleted memory' }).click()
      await until(() => existsSync(join(dir, 'b.md')) && index().includes('(b.md)'))
      expect(index()).toBe('- [A](a.md) — first\n- [B](b.md) — second\n- [C](c.md) — third\n')
    } finally {
      await app.close()
    }
  })
})
