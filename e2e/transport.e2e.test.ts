import { readdirSync, readFileSync, utimesSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { startWebServer } from '../src-main/web/web-server.js'
import { FIRST_SCREEN } from '../src-renderer/src/features/memories/slice.js'
import { writeFile } from '../test/helpers/temp-env.js'
import { useBrowser, openApp, RENDERER, until } from './harness.js'

const browser = useBrowser()

describe('the browser transport', () => {
  it('shows "disconnected" while the server is down and picks up the new token from the URL hash', async () => {
    const app = await openApp(browser(), {}, (sb) =>
      writeFile(
        join(getAutoMemPath(sb.ctx()), 'a.md'),
        '---\nname: Alpha\ndescription: first memory\ntype: user\n---\nx\n',
      ),
    )
    const { page } = app
    const port = Number(new URL(app.web.url).port)
    await page.locator('.mem-row').first().waitFor()
    expect(await page.getByTestId('connection-banner').count()).toBe(0)
    // Once the socket is open, calls travel on it (a fetch per keystroke costs Chromium ~10 ms).
    const posts: string[] = []
    page.on('request', (r) => void (r.url().endsWith('/rpc') && posts.push(r.url())))
    await page.getByLabel('Search memories').fill('first')
    await page.locator('[data-searched-for="first"]').waitFor()
    await page.getByLabel('Search memories').fill('')
    expect(posts).toEqual([])
    await app.web.close()
    await page.getByTestId('connection-banner').waitFor()
    expect(await page.getByTestId('connection-banner').innerText()).toContain('Disconnected from Memdir')
    // A click that needs the server says so in words, never a bare "Failed to fetch".
    await page.getByRole('button', { name: 'MEMORY.md' }).click()
    await page.getByText('Memdir is not reachable').waitFor()
    expect(await page.getByText('Failed to fetch').count()).toBe(0)

    // The server comes back on the same port with a new token: the page learns it from the hash.
    writeFile(
      join(getAutoMemPath(app.sb.ctx()), 'b.md'),
      '---\nname: Beta\ndescription: second\ntype: user\n---\ny\n',
    )
    const web = await startWebServer({ host: app.host, rendererDir: RENDERER, port })
    try {
      await page.evaluate((t) => (location.hash = `token=${t}`), web.token)
      await until(async () => (await page.getByTestId('connection-banner').count()) === 0)
      await page.getByRole('button', { name: 'Memories' }).first().click()
      await page.locator('[data-relpath="b.md"]').waitFor()
      expect(await page.locator('.mem-row').count()).toBe(2)
    } finally {
      await page.close()
      await web.close()
      await app.host.close()
    }
  })

  it('runs on preact/compat: no script of the built renderer carries react-dom', () => {
    // react-dom was most of the first screen's start-up (electron.vite.config.ts aliases it away);
    // its production build names its error pages, which nothing else in the bundle does.
    const scripts = readdirSync(join(RENDERER, 'assets')).filter((f) => f.endsWith('.js'))
    expect(scripts.length).toBeGreaterThan(1)
    const withReactDom = scripts.filter((f) =>
      readFileSync(join(RENDERER, 'assets', f), 'utf8').includes('react.dev/errors'),
    )
    expect(withReactDom).toEqual([])
  })

  it('draws the memory list once, with its rows: never an empty list first', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      for (const n of ['alpha', 'beta', 'gamma'])
        writeFile(
          join(getAutoMemPath(sb.ctx()), `${n}.md`),
          `---\nname: ${n}\ndescription: about ${n}\ntype: user\n---\nx\n`,
        )
    })
    const page = await browser().newPage()
    try {
      // What the list pane holds the first time it is in the document.
      await page.addInitScript(() => {
        new MutationObserver((_, mo) => {
          const pane = document.querySelector('[aria-label="Memory browser"]')
          if (!pane) return
          mo.disconnect()
          ;(window as unknown as { firstRows: number }).firstRows = pane.querySelectorAll('.mem-row').length
        }).observe(document, { childList: true, subtree: true })
      })
      await page.goto(app.web.url)
      await page.locator('.mem-row').first().waitFor()
      expect(await page.evaluate(() => (window as unknown as { firstRows: number }).firstRows)).toBe(3)
    } finally {
      await page.close()
      await app.close()
    }
  })

  it('a list longer than the first screen: its newest rows first, then all of it; no count says less', async () => {
    const n = FIRST_SCREEN + 50
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      for (let i = 0; i < n; i++) {
        const path = join(dir, `m${String(i).padStart(3, '0')}.md`)
        writeFile(path, `---\nname: Memory ${i}\ndescription: note ${i}\ntype: user\n---\nx\n`)
        const t = new Date(Date.UTC(2026, 0, 1, 0, i))
        utimesSync(path, t, t)
      }
    })
    const page = await browser().newPage()
    try {
      // Every value the list's count and the picker show, from the first.
      await page.addInitScript(() => {
        const seen: string[] = []
        ;(window as unknown as { seen: string[] }).seen = seen
        new MutationObserver(() => {
          const label = document.querySelector('[data-testid="memory-count"]')?.textContent
          const picker = document.querySelector('#workspace-select')?.textContent
          const v = `${label ?? ''}|${picker ?? ''}`
          if (seen[seen.length - 1] !== v) seen.push(v)
        }).observe(document, { childList: true, subtree: true, characterData: true })
      })
      await page.goto(app.web.url)
      // The newest first, as the whole list orders them.
      await page.locator('[data-relpath="m349.md"]').waitFor()
      await until(async () => (await page.getByTestId('memory-count').innerText()) === String(n))
      const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen)
      for (const v of seen) {
        const [label, picker] = v.split('|')
        if (label) expect([`${FIRST_SCREEN}+`, String(n)]).toContain(label.trim())
        expect(picker).not.toContain(`· ${FIRST_SCREEN}`)
      }
      // The oldest is there once the whole list is.
      await page.getByLabel('Search memories').fill('Memory 0')
      await page.locator('[data-relpath="m000.md"]').waitFor()
      expect(seen.some((v) => v.startsWith(`${n}|`) && v.includes(`· ${n}`))).toBe(true)
    } finally {
      await page.close()
      await app.close()
    }
  })
})
