import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { getProjectTranscriptDir, getTeamMemPath } from '../src-main/core/paths/team-agent-paths.js'
import { reply, text, toolUse } from '../test/fake-anthropic/server.js'
import { startTeamServer } from '../test/helpers/team-server.js'
import { writeFile } from '../test/helpers/temp-env.js'
import { fakeSession, useBrowser, openApp, screenshot, until, setEditorText } from './harness.js'
import { openWithModel } from './worlds.js'

const browser = useBrowser()

const memory = (name: string, description: string, type = 'project', body = 'Details.') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`

describe('memory workspace in the browser', () => {
  it('creates, edits and deletes a memory, and the files on disk follow', async () => {
    const app = await openApp(browser())
    const { page } = app
    try {
      const dir = getAutoMemPath(app.sb.ctx())
      await page.getByText('No memories yet').waitFor()
      expect(await page.getByText('No memories yet').isVisible()).toBe(true)
      await screenshot(page, '01-empty-workspace')
      await page.getByRole('button', { name: 'New memory' }).click()
      await page.locator('input[name=name]').fill('Deploys go through make ship')
      await page.locator('input[name=description]').fill('Staging deploys run with make ship STAGE=staging')
      await page.locator('select[name=type]').selectOption('reference')
      await page
        .getByLabel('Content')
        .fill('Run `make ship STAGE=staging`.\n\n**Why:** the script tags the release.')
      await page.getByRole('button', { name: 'Create memory' }).click()
      await page.locator('[data-relpath="deploys_go_through_make_ship.md"]').waitFor()
      const file = join(dir, 'deploys_go_through_make_ship.md')
      expect(readFileSync(file, 'utf8')).toContain(
        '\ndescription: Staging deploys run with make ship STAGE=staging\n',
      )
      expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toContain('](deploys_go_through_make_ship.md)')
      await screenshot(page, '02-editor')

      await page.locator('input[name=description]').fill('Staging and production deploys run with make ship')
      await page.keyboard.press('Control+s')
      await until(() => readFileSync(file, 'utf8').includes('Staging and production deploys'))
      await page.getByRole('button', { name: 'Preview' }).click()
      await page.locator('.markdown strong', { hasText: 'Why:' }).waitFor()

      await page.getByRole('button', { name: 'Delete…' }).click()
      await page.getByRole('button', { name: 'Delete', exact: true }).click()
      await until(
        () =>
          !existsSync(file) &&
          !readFileSync(join(dir, 'MEMORY.md'), 'utf8').includes('deploys_go_through_make_ship'),
      )
      await page.getByText('No memories yet').waitFor()
    } finally {
      await app.close()
    }
  })

  it("says when a new memory's index line lands past the cut, and compacting the index brings it back", async () => {
    const notes = Array.from(
      { length: 205 },
      (_, i) => `Note ${i}: a detail someone typed straight into the index.`,
    )
    const app = await openApp(browser(), {}, (sb) =>
      writeFile(join(getAutoMemPath(sb.ctx()), 'MEMORY.md'), `# Memory\n\n${notes.join('\n')}\n`),
    )
    const { page } = app
    try {
      await page.getByRole('button', { name: 'New memory' }).click()
      await page.locator('input[name=name]').fill('Release checklist')
      await page.locator('input[name=description]').fill('what to check before tagging a release')
      await page.getByLabel('Content').fill('Run the e2e suite; bump the version.')
      await page.getByRole('button', { name: 'Create memory' }).click()
      const cut = page.getByRole('alert', { name: 'Past the index cut' })
      await cut.waitFor()
      expect(await cut.innerText()).toContain("past the index's cut (200 lines or 25,000 characters)")
      // Opening it again says the same: the memory's own state, not a message of the save.
      await page.locator('[data-relpath="release_checklist.md"]').click()
      await cut.waitFor()
      await cut.getByRole('button', { name: 'Compact the index' }).click()
      await until(async () => (await cut.count()) === 0)
      const index = readFileSync(join(getAutoMemPath(app.sb.ctx()), 'MEMORY.md'), 'utf8')
      expect(index.split('\n').length).toBeLessThan(20)
      expect(index).toContain('](release_checklist.md)')
    } finally {
      await app.close()
    }
  })

  it('shows a file written by Claude Code or an editor within a second, and filters by type, scope and text', async () => {
    const app = await openApp(browser())
    const { page } = app
    try {
      const dir = getAutoMemPath(app.sb.ctx())
      writeFile(
        join(dir, 'db.md'),
        memory('Real database', 'Integration tests hit the real Postgres', 'feedback'),
      )
      await page.locator('[data-relpath="db.md"]').waitFor({ timeout: 3000 })
      writeFile(
        join(dir, 'team', 'release.md'),
        memory('Release checklist', 'Tag, changelog, 24 h soak', 'project'),
      )
      await page.locator('[data-relpath="team/release.md"]').waitFor({ timeout: 3000 })
      await page.getByRole('group', { name: 'Filter by scope' }).getByRole('button', { name: 'team' }).click()
      expect(await page.locator('.mem-row').count()).toBe(1)
      await page.getByRole('group', { name: 'Filter by scope' }).getByRole('button', { name: 'all' }).click()
      await page.getByLabel('Filter by type').selectOption('feedback')
      expect(await page.locator('.mem-row').allInnerTexts()).toEqual([
        expect.stringContaining('Real database'),
      ])
      await page.getByLabel('Filter by type').selectOption('all')
      await page.getByLabel('Search memories').fill('changelog')
      expect(await page.locator('.mem-row').count()).toBe(1)
      await page.getByLabel('Search memories').fill('')
      await page.locator('[data-relpath="db.md"]').click()
      await page.locator('input[name=name]').waitFor()
      // an external edit of the open (unmodified) file reloads it
      writeFile(
        join(dir, 'db.md'),
        memory('Real database', 'Integration tests hit the real Postgres 16', 'feedback'),
      )
      await until(
        async () => (await page.locator('input[name=description]').inputValue()).endsWith('Postgres 16'),
        3000,
      )
      await screenshot(page, '03-memory-browser')
    } finally {
      await app.close()
    }
  })

  it('refuses to overwrite a file changed on disk and shows both versions', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      writeFile(
        join(getAutoMemPath(sb.ctx()), 'style.md'),
        memory('Code style', 'Prefer early returns', 'feedback', 'Original body.'),
      )
    })
    const { page } = app
    try {
      const file = join(getAutoMemPath(app.sb.ctx()), 'style.md')
      await page.locator('[data-relpath="style.md"]').click()
      await setEditorText(page, 'My edit in the app.')
      const theirs = memory(
        'Code style',
        'Prefer early returns',
        'feedback',
        'Changed by Claude Code meanwhile.',
      )
      writeFileSync(file, theirs)
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('alert', { name: 'Edit conflict' }).waitFor()
      const diff = page.getByLabel('Differences: on disk and yours')
      expect(await diff.locator('.diff-del').innerText()).toContain('Changed by Claude Code meanwhile.')
      expect(await diff.locator('.diff-add').innerText()).toContain('My edit in the app.')
      expect(readFileSync(file, 'utf8')).toBe(theirs)
      await screenshot(page, '04-edit-conflict')
      await page.getByRole('button', { name: 'Keep mine' }).click()
      await until(() => readFileSync(file, 'utf8').includes('My edit in the app.'))
    } finally {
      await app.close()
    }
  })

  it("a body edit leaves someone's frontmatter as written: a block description shows as one line, a name stays as typed", async () => {
    const head =
      '---\nname: Deploy   freeze\ndescription: |\n  No deploys\n  on Fridays\nmetadata:\n  type: project\n---\n'
    const app = await openApp(browser(), {}, (sb) =>
      writeFile(join(getAutoMemPath(sb.ctx()), 'freeze.md'), `${head}\nFridays.\n`),
    )
    const { page } = app
    try {
      const file = join(getAutoMemPath(app.sb.ctx()), 'freeze.md')
      await page.locator('[data-relpath="freeze.md"]').click()
      await page.getByLabel('Content', { exact: true }).getByText('Fridays.').waitFor()
      expect(await page.locator('input[name=description]').inputValue()).toBe('No deploys on Fridays')
      await page.getByLabel('Content', { exact: true }).getByText('Fridays.').click()
      await page.keyboard.press('End')
      await page.keyboard.insertText(' And Thursdays.')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await until(() => readFileSync(file, 'utf8').includes('And Thursdays.'))
      expect(readFileSync(file, 'utf8')).toBe(`${head}\nFridays. And Thursdays.\n`)
    } finally {
      await app.close()
    }
  })

  it('opens a memory saved on Windows (CRLF) as unchanged, and an edit keeps its line breaks', async () => {
    const crlf = memory(
      'Line endings',
      'Saved on Windows',
      'reference',
      'First line.\n\nSecond line.',
    ).replace(/\n/g, '\r\n')
    const app = await openApp(browser(), {}, (sb) =>
      writeFile(join(getAutoMemPath(sb.ctx()), 'windows.md'), crlf),
    )
    const { page } = app
    try {
      const file = join(getAutoMemPath(app.sb.ctx()), 'windows.md')
      await page.locator('[data-relpath="windows.md"]').click()
      await page.getByLabel('Content', { exact: true }).getByText('Second line.').waitFor()
      await page.waitForTimeout(300)
      // Nothing was typed: nothing is unsaved, and leaving asks nothing.
      expect(await page.getByText('Unsaved', { exact: true }).count()).toBe(0)
      expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true)
      await page.getByRole('button', { name: 'New memory' }).click()
      expect(await page.getByRole('heading', { name: 'Unsaved changes' }).count()).toBe(0)
      expect(readFileSync(file, 'utf8')).toBe(crlf)

      await page.locator('[data-relpath="windows.md"]').click()
      await page.getByLabel('Content', { exact: true }).getByText('Second line.').click()
      await page.keyboard.press('End')
      await page.keyboard.insertText(' Added in the app.')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await until(() => readFileSync(file, 'utf8').includes('Added in the app.'))
      expect(readFileSync(file, 'utf8')).toBe(crlf.replace('Second line.', 'Second line. Added in the app.'))
    } finally {
      await app.close()
    }
  })
  it('counts characters as Claude Code does: a 27 KB CJK index is not cut; comments are shown as stripped', async () => {
    const lines = Array.from(
      { length: 100 },
      (_, i) => `- [记忆${i}](m${i}.md) — ${'部署流程说明'.repeat(15)}`,
    )
    const chars = lines.join('\n').length
    expect(Buffer.byteLength(lines.join('\n'))).toBeGreaterThan(27_000)
    const app = await openApp(browser(), {}, (sb) => {
      writeFile(
        join(getAutoMemPath(sb.ctx()), 'MEMORY.md'),
        ['<!-- maintained by the team -->', ...lines].join('\r\n') + '\r\n',
      )
    })
    const { page } = app
    try {
      await page.getByRole('button', { name: 'MEMORY.md' }).click()
      await page.getByTestId('meter-chars').waitFor()
      expect(await page.getByTestId('meter-chars').innerText()).toContain(
        `${chars.toLocaleString('en-US')} / 25,000 characters`,
      )
      expect(await page.getByTestId('meter-chars').getAttribute('class')).not.toContain('over')
      expect(await page.getByTestId('index-warning').count()).toBe(0)
      expect(await page.locator('li[data-cut="true"]').count()).toBe(0)
      expect(await page.locator('li[data-stripped="true"]').innerText()).toContain('maintained by the team')
    } finally {
      await app.close()
    }
  })

  it('shows all of an over-long index line (a pasted URL, no spaces): it wraps, nothing is cut off', async () => {
    const url = `https://wiki.example.com/${'Runbook'.repeat(70)}`
    const app = await openApp(browser(), {}, (sb) => {
      writeFile(join(getAutoMemPath(sb.ctx()), 'MEMORY.md'), `- [Runbook](runbook.md) — ${url}\n`)
    })
    const { page } = app
    try {
      await page.getByRole('button', { name: 'MEMORY.md' }).click()
      const line = page.getByRole('list', { name: 'MEMORY.md lines' }).locator('li .mono').first()
      await line.waitFor()
      expect(await line.innerText()).toContain('RunbookRunbook')
      const fits = await line.evaluate((el) => {
        const list = el.closest('ol')!.getBoundingClientRect()
        return el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= list.right
      })
      expect(fits).toBe(true)
    } finally {
      await app.close()
    }
  })

  it('meters a 250-line MEMORY.md against 200 lines / 25,000 characters and marks the cut lines', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const lines = Array.from(
        { length: 250 },
        (_, i) => `- [Topic ${i}](topic_${i}.md) — one-line hook for topic ${i}`,
      )
      writeFile(join(getAutoMemPath(sb.ctx()), 'MEMORY.md'), lines.join('\n') + '\n')
    })
    const { page } = app
    try {
      await page.getByRole('button', { name: 'MEMORY.md' }).click()
      await page.getByTestId('meter-lines').waitFor()
      expect(await page.getByTestId('meter-lines').innerText()).toContain('250 / 200 lines')
      expect(await page.getByTestId('meter-lines').getAttribute('class')).toContain('over')
      expect(await page.getByTestId('meter-chars').getAttribute('class')).not.toContain('over')
      expect(await page.getByTestId('index-warning').innerText()).toContain(
        'MEMORY.md is 250 lines (limit: 200). Only part of it was loaded.',
      )
      expect(await page.locator('li[data-cut="true"]').count()).toBe(50)
      expect(await page.locator('li[data-cut="true"]').first().innerText()).toContain('Topic 200')
      await screenshot(page, '05-memory-index')
      await page.getByRole('button', { name: 'Prompt' }).click()
      await page.getByTestId('prompt-text').waitFor()
      expect(await page.getByTestId('prompt-text').innerText()).toContain(
        '## Before recommending from memory',
      )
      await page.getByRole('button', { name: 'KAIROS (daily log)' }).click()
      await until(async () =>
        (await page.getByTestId('prompt-text').innerText()).includes('YYYY/MM/YYYY-MM-DD.md'),
      )
      await screenshot(page, '06-prompt-preview')
    } finally {
      await app.close()
    }
  })

  it('previews recall offline, labelled as such, with the injected text', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      writeFile(
        join(dir, 'db.md'),
        memory(
          'Real database',
          'Integration tests hit the real Postgres',
          'feedback',
          'No mocks for the DB.',
        ),
      )
      writeFile(join(dir, 'deploy.md'), memory('Deploys', 'Staging deploys run with make ship', 'project'))
    })
    const { page } = app
    try {
      await page.getByRole('button', { name: 'Recall' }).click()
      await page.getByLabel('Query').fill('why do the postgres integration tests fail')
      await page.getByRole('button', { name: 'Preview recall' }).click()
      await page.getByTestId('recall-mode').waitFor()
      expect(await page.getByTestId('recall-mode').innerText()).toContain('Offline ranking')
      const first = page.locator('.recall-list li').first()
      expect(await first.innerText()).toContain('db.md')
      expect(await first.locator('.injection').innerText()).toContain('Memory (saved today):')
      expect(await first.locator('.injection').innerText()).toContain('No mocks for the DB.')
      await screenshot(page, '07-recall-preview')
    } finally {
      await app.close()
    }
  })

  it('syncs team memory with the real team server from the Sync now button, reporting skipped files', async () => {
    const server = await startTeamServer()
    const token = await server.token('acme/shop')
    const app = await openApp(browser(), {
      MEMDIR_TEAM_MEMORY: '1',
      MEMDIR_TEAM_URL: server.url,
      MEMDIR_TEAM_TOKEN: token,
      MEMDIR_TEAM_REPO: 'acme/shop',
    })
    const { page } = app
    try {
      const team = getTeamMemPath(app.sb.ctx())
      writeFile(
        join(team, 'conventions.md'),
        memory('Conventions', 'Integration tests hit a real DB', 'feedback'),
      )
      writeFile(
        join(team, 'creds.md'),
        memory('Creds', 'staging access', 'reference', `key: sk-ant-api03-${'Q1w2'.repeat(20)}`),
      )
      await page.getByRole('button', { name: 'Team sync' }).click()
      await page.getByRole('button', { name: 'Sync now' }).click()
      await until(
        async () => (await server.store.getRepo('acme/shop'))?.entries.has('conventions.md') === true,
      )
      await page.getByTestId('last-sync').waitFor()
      await until(async () => (await page.getByTestId('last-sync').innerText()).includes('creds.md'))
      const text = await page.getByTestId('last-sync').innerText()
      expect(text).toContain('Anthropic API key')
      expect(text).not.toContain('sk-ant')
      expect((await server.store.getRepo('acme/shop'))!.entries.has('creds.md')).toBe(false)
      await screenshot(page, '08-team-sync')
    } finally {
      await app.close()
    }
  })

  it('shows an extraction from a finished Claude Code turn in the activity feed', async () => {
    const { app, fake } = await openWithModel(browser())
    const { page } = app
    try {
      const dir = getAutoMemPath(app.sb.ctx())
      fake.enqueue(
        reply(
          toolUse('Write', {
            file_path: join(dir, 'grafana.md'),
            content: memory(
              'Checkout dashboard',
              'Checkout latency lives on grafana.internal/d/checkout',
              'reference',
            ),
          }),
          toolUse('Write', {
            file_path: join(dir, 'MEMORY.md'),
            content: '- [Checkout dashboard](grafana.md) — latency\n',
          }),
        ),
        reply(text('Saved.')),
      )
      fakeSession(
        join(getProjectTranscriptDir(app.sb.ctx()), '0b7c2f3e-1111-4222-8333-444455556666.jsonl'),
      ).endTurn('The checkout dashboard is grafana.internal/d/checkout')
      await page.locator('.toast', { hasText: 'Memory updated in proj' }).waitFor({ timeout: 10_000 })
      await page.getByRole('button', { name: 'Activity' }).click()
      const item = page.locator('.feed-item').first()
      expect(await item.innerText()).toContain('Saved 1 memory')
      await item.getByRole('button', { name: 'grafana.md' }).click()
      await until(async () => (await page.locator('input[name=name]').inputValue()) === 'Checkout dashboard')
      await page.getByRole('button', { name: 'Activity' }).click()
      await screenshot(page, '09-activity')
    } finally {
      await app.close()
    }
  })

  it('opens the demo workspace on first run and shows settings', async () => {
    const app = await openApp(browser())
    await app.close()
    // A host started without a project and no Claude Code projects opens the demo.
    const { createHost } = await import('../src-main/host/app/host.js')
    const { startWebServer } = await import('../src-main/web/web-server.js')
    const { ROOT, RENDERER } = await import('./harness.js')
    const host = await createHost({ env: { ...app.sb.env }, resourcesDir: join(ROOT, 'resources') })
    const web = await startWebServer({ host, rendererDir: RENDERER })
    const page = await browser().newPage({ viewport: { width: 1360, height: 860 } })
    try {
      await page.goto(web.url)
      await page.getByTestId('demo-note').waitFor()
      expect(await page.getByTestId('memory-source').innerText()).toBe('sample memories (demo)')
      await page.locator('.mem-row').first().waitFor()
      expect(await page.locator('.mem-row').count()).toBe(6)
      await page.locator('.mem-row').first().click()
      await page.locator('input[name=name]').waitFor()
      await screenshot(page, '00-demo-workspace')
      await page.getByRole('button', { name: 'Settings' }).click()
      await page.getByRole('heading', { name: 'Settings' }).waitFor()
      await screenshot(page, '10-settings')
    } finally {
      await page.close()
      await web.close()
      await host.close()
    }
  })

  it('rejects browser-transport calls without the launch token', async () => {
    const app = await openApp(browser())
    try {
      const res = await fetch(new URL('/rpc', app.web.url), {
        method: 'POST',
        body: JSON.stringify({ method: 'memory/list' }),
      })
      expect(res.status).toBe(401)
    } finally {
      await app.close()
    }
  })
})
