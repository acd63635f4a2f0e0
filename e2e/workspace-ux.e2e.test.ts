import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { sanitizePath } from '../src-main/core/paths/sanitize.js'
import { getTeamMemPath } from '../src-main/core/paths/team-agent-paths.js'
import { startTeamServer } from '../test/helpers/team-server.js'
import { writeFile } from '../test/helpers/temp-env.js'
import {
  editorText,
  memoryFile as memory,
  nav,
  useBrowser,
  openApp,
  screenshot,
  setEditorText,
  until,
} from './harness.js'

const browser = useBrowser()

describe('1. every workspace', () => {
  it('lists memory dirs without transcripts, remembers a picked folder, and keeps one entry per memory dir', async () => {
    let other = ''
    let orphanDir = ''
    const app = await openApp(browser(), {}, (sb) => {
      writeFile(join(getAutoMemPath(sb.ctx()), 'a.md'), memory('Alpha', 'first', 'x'))
      // A second project whose Claude Code transcripts are gone: only its memory dir is left.
      // A git checkout: Claude Code run in any of its subfolders keeps one memory dir, its root's.
      other = join(sb.root, 'work', 'billing')
      mkdirSync(join(other, 'src'), { recursive: true })
      execFileSync('git', ['init', '-q', other])
      orphanDir = join(sb.configDir, 'projects', sanitizePath(other), 'memory')
      writeFile(join(orphanDir, 'b.md'), memory('Beta', 'second', 'y'))
      writeFile(join(orphanDir, 'c.md'), memory('Gamma', 'third', 'z'))
    })
    const { page } = app
    try {
      const select = page.locator('#workspace-select')
      const options = () => select.locator('option').allInnerTexts()
      await until(async () => (await options()).some((o) => o.includes('(pick folder)')))
      expect(await options()).toEqual(
        expect.arrayContaining(['proj · 1', `${sanitizePath(other)} · 2 (pick folder)`]),
      )

      await select.selectOption({ label: `${sanitizePath(other)} · 2 (pick folder)` })
      // The folder field takes the keyboard as it appears: the path can be typed at once.
      const folder = page.getByLabel('Project folder for this memory')
      await until(() => folder.evaluate((el) => el === document.activeElement))
      await page.keyboard.type('/not/typed/anywhere/else')
      expect(await folder.inputValue()).toBe('/not/typed/anywhere/else')
      await folder.fill(join(app.sb.root, 'work', 'proj'))
      await page.getByRole('button', { name: 'Open', exact: true }).click()
      await page.getByText(/keeps its memory in/).waitFor() // the wrong folder is refused, saying why
      await page.getByLabel('Project folder for this memory').fill(other)
      await page.getByRole('button', { name: 'Open', exact: true }).click()
      await page.locator('[data-relpath="b.md"]').waitFor()
      // The switcher's count is the list's count.
      expect(await page.getByTestId('memory-count').innerText()).toBe('2')
      expect(await options()).toContain('billing · 2')
      // A memory written while the app is open: the switcher counts it as the list does.
      writeFile(join(orphanDir, 'd.md'), memory('Delta', 'fourth', 'w'))
      await until(async () => (await page.getByTestId('memory-count').innerText()) === '3')
      await until(async () => (await options()).includes('billing · 3'))

      // A subfolder of a listed project selects that project: still one entry. (From another
      // project first, so the memory dir shown is the answer to this open, not the one before it.)
      const openFolder = async (folder: string, memoryDir: string) => {
        await page.getByLabel('Open a project folder').fill(folder)
        await page.getByLabel('Open a project folder').press('Enter')
        await until(async () => (await page.getByTestId('memory-dir').getAttribute('title')) === memoryDir)
      }
      await openFolder(app.sb.project, getAutoMemPath(app.sb.ctx()))
      await openFolder(join(other, 'src'), orphanDir + '/')
      expect((await options()).filter((o) => o.startsWith('billing'))).toHaveLength(1)
    } finally {
      await app.close()
    }
  })
})

describe('2. team memory from the app', () => {
  it('turns team memory on, configures it, and syncs now against the real server; a bad token is an error', async () => {
    const server = await startTeamServer()
    const token = await server.token('acme/shop')
    const app = await openApp(browser())
    const { page, sb } = app
    try {
      await nav(page, 'Team sync')
      const state = page.getByTestId('team-state')
      await until(async () => (await state.innerText()) === 'Team memory off')
      expect(await page.getByRole('button', { name: 'Sync now' }).isDisabled()).toBe(true)
      await page.getByRole('switch', { name: 'Team memory' }).check()
      await until(async () => (await state.innerText()) === 'Not configured')

      await page.locator('input[name=teamUrl]').fill(server.url)
      await page.locator('input[name=teamToken]').fill('tmt_wrong')
      await page.locator('input[name=teamRepo]').fill('acme/shop')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.getByRole('button', { name: 'Sync now' }).click()
      await until(async () => (await state.innerText()) === 'Sync failing')
      await screenshot(page, 'team-error')

      await page.locator('input[name=teamToken]').fill(token)
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      writeFile(
        join(getTeamMemPath(sb.ctx({ teamMemorySwitch: true })), 'conventions.md'),
        memory('Conventions', 'shared rules', 'Use the real DB.'),
      )
      await page.getByRole('button', { name: 'Sync now' }).click()
      await until(
        async () => (await server.store.getRepo('acme/shop'))?.entries.has('conventions.md') === true,
      )
      await until(async () => (await state.innerText()).startsWith('Connected'))
      const last = page.getByTestId('last-sync')
      await until(async () => (await last.innerText()).includes(`acme/shop on ${new URL(server.url).host}`))
      // Syncing again moves nothing: the panel says so, and no toast of the earlier push stays beside it.
      await page.getByRole('button', { name: 'Sync now' }).click()
      await until(async () => (await last.innerText()).includes('Up to date: nothing to pull or push.'))
      await until(async () => (await page.locator('.toast', { hasText: 'pushed' }).count()) === 0)
      // Where the token lives is shown; in the browser (no keychain) a 0600 file, never settings.json.
      expect(await page.getByTestId('secret-teamToken').innerText()).toBe(
        '(set · in a file only you can read)',
      )
      const dataDir = sb.env.MEMDIR_DATA_DIR as string
      expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain(token)
      // Kept for this server and repo (another repo's token would be a file of its own).
      const kept = readdirSync(join(dataDir, 'secrets')).filter((f) => f.startsWith('team-token-'))
      expect(kept).toHaveLength(1)
      expect(readFileSync(join(dataDir, 'secrets', kept[0]!), 'utf8')).toBe(token)
    } finally {
      await app.close()
    }
  })
})

describe('3. search', () => {
  it('finds a word that only appears in a body, ranked and highlighted, and clears filters from an empty result', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      writeFile(
        join(dir, 'deploy.md'),
        memory('Deploys', 'how releases go out', 'The canary stage runs on flamingo hosts first.'),
      )
      writeFile(join(dir, 'style.md'), memory('Code style', 'prefer early returns', 'Nothing about birds.'))
      writeFile(
        join(dir, 'flamingo.md'),
        memory('Flamingo cluster', 'the canary hosts', 'Ask ops for access.'),
      )
    })
    const { page } = app
    try {
      await page.getByLabel('Search memories').fill('flamingo')
      await until(async () => (await page.locator('.mem-row').count()) === 2)
      // Ranked: the memory named for it first, then the one whose body mentions it.
      expect(await page.locator('.mem-row').nth(0).getAttribute('data-relpath')).toBe('flamingo.md')
      expect(await page.locator('.mem-row').nth(1).getAttribute('data-relpath')).toBe('deploy.md')
      expect(await page.locator('[data-relpath="deploy.md"] .snippet mark').innerText()).toBe('flamingo')
      await screenshot(page, 'search-body')

      await page.locator('select[aria-label="Filter by type"]').selectOption('user')
      await page.getByText('No memory matches “flamingo”.').waitFor()
      await page.getByRole('button', { name: 'Clear filters' }).click()
      await until(async () => (await page.locator('.mem-row').count()) === 3)
    } finally {
      await app.close()
    }
  })
})

describe('3b. search over many', () => {
  it('says "500+" when the search lists as many hits as it shows at most, and the exact count below that', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      for (let i = 0; i < 520; i++)
        writeFile(join(dir, `note_${i}.md`), memory(`Note ${i}`, 'a note', `The zebra crossing ${i}.`))
      writeFile(join(dir, 'other.md'), memory('Other', 'unrelated', 'Nothing here.'))
    })
    const { page } = app
    try {
      const count = page.getByTestId('memory-count')
      await until(async () => (await count.innerText()) === '521')
      await page.getByLabel('Search memories').fill('zebra')
      await until(async () => (await count.innerText()) === '500+ of 521')
      // Each word matches as a word's start: 519 is one memory (7 would be 7 and 70–79).
      await page.getByLabel('Search memories').fill('zebra crossing 519')
      await until(async () => (await count.innerText()) === '1 of 521')
    } finally {
      await app.close()
    }
  })
})

describe('4. editor', () => {
  it('edits in CodeMirror with undo, saves with Ctrl+S, says "Saved", and previews Markdown with [[links]]', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      writeFile(
        join(dir, 'deploy.md'),
        memory(
          'Deploys',
          'how releases go out',
          'Tag first. See [[Code style]], [[style#Why|why we do it]] and [the guide](./style.md).',
        ),
      )
      writeFile(join(dir, 'style.md'), memory('Code style', 'prefer early returns', 'Early returns.'))
    })
    const { page, sb } = app
    const file = join(getAutoMemPath(sb.ctx()), 'deploy.md')
    try {
      await page.locator('[data-relpath="deploy.md"]').click()
      const content = page.getByLabel('Content', { exact: true })
      await content.click()
      await page.keyboard.press('Control+End')
      await page.keyboard.type(' Then ship.')
      expect(await editorText(page)).toContain('Then ship.')
      await page.keyboard.press('Control+z')
      await until(async () => !(await editorText(page)).includes('Then ship.'))
      await page.keyboard.type(' Then deploy.')
      await page.keyboard.press('Control+s')
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor()
      await until(() => readFileSync(file, 'utf8').includes('Then deploy.'))
      expect(readFileSync(file, 'utf8')).not.toContain('Then ship.')
      // The saved row stays selected.
      expect(await page.locator('[data-relpath="deploy.md"]').getAttribute('aria-selected')).toBe('true')

      await page.getByRole('button', { name: 'Preview' }).click()
      await page.locator('.markdown').getByRole('button', { name: 'Code style' }).click()
      await until(async () => (await page.locator('input[name=name]').inputValue()) === 'Code style')
      // A wikilink to a heading and a relative Markdown link lead to the memory too.
      for (const link of ['why we do it', 'the guide']) {
        await page.locator('[data-relpath="deploy.md"]').click()
        await until(async () => (await page.locator('input[name=name]').inputValue()) === 'Deploys')
        if (!(await page.locator('.markdown').isVisible()))
          await page.getByRole('button', { name: 'Preview' }).click()
        await page.locator('.markdown').getByRole('button', { name: link }).click()
        await until(async () => (await page.locator('input[name=name]').inputValue()) === 'Code style')
      }

      // Ctrl+N: a new memory, with Name focused.
      await page.keyboard.press('Control+n')
      await until(
        async () => await page.locator('input[name=name]').evaluate((el) => el === document.activeElement),
      )
    } finally {
      await app.close()
    }
  })
})

describe('4b. a memory the Markdown renderer cannot take', () => {
  it('says so in the preview and keeps the rest of the workspace working', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      // Nested thousands of levels deep: the renderer's stack overflows on it.
      writeFile(join(dir, 'deep.md'), memory('Deep', 'nested quotes', `${'>'.repeat(30_000)} deep`))
      writeFile(join(dir, 'style.md'), memory('Code style', 'prefer early returns', 'Early returns.'))
    })
    const { page } = app
    try {
      await page.locator('[data-relpath="deep.md"]').click()
      await page.getByRole('button', { name: 'Preview' }).click()
      await page
        .locator('.markdown')
        .getByText(/This text cannot be shown as Markdown/)
        .waitFor({ timeout: 20_000 })
      await page.locator('[data-relpath="style.md"]').click()
      await until(async () => (await page.locator('input[name=name]').inputValue()) === 'Code style')
      expect(await page.locator('.markdown').innerText()).toContain('Early returns.')
    } finally {
      await app.close()
    }
  }, 60_000)
})

describe('4c. a table wider than the pane', () => {
  it('scrolls sideways in the preview at 1024 px, its words whole, and nothing else moves', async () => {
    const cells = (label: string) => Array.from({ length: 14 }, (_, i) => `${label}${i}xxxxx`).join(' | ')
    const table = `| ${cells('column')} |\n|${' --- |'.repeat(14)}\n| ${cells('value')} |`
    const app = await openApp(
      browser(),
      {},
      (sb) => writeFile(join(getAutoMemPath(sb.ctx()), 'wide.md'), memory('Wide', 'a wide table', table)),
      undefined,
      { theme: 'light', width: 1024, height: 700 },
    )
    const { page } = app
    try {
      await page.locator('[data-relpath="wide.md"]').click()
      await page.getByRole('button', { name: 'Preview', exact: true }).click()
      const shape = await page.locator('.markdown table').evaluate((t) => ({
        scrolls: t.scrollWidth > t.clientWidth,
        inPane: t.getBoundingClientRect().right <= t.closest('.markdown')!.getBoundingClientRect().right,
        // Each cell at least as wide as its word: none broken letter by letter.
        cut: [...t.querySelectorAll('th, td')].filter((c) => c.scrollWidth > c.clientWidth + 1).length,
        lines: [...t.querySelectorAll('th')].map((c) => Math.round(c.getBoundingClientRect().height)),
      }))
      expect(shape).toMatchObject({ scrolls: true, inPane: true, cut: 0 })
      expect(new Set(shape.lines).size).toBe(1) // one line of text in every header cell
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    } finally {
      await app.close()
    }
  })
})

describe('5. conflicts', () => {
  it('shows both versions as a diff and saves a merge of the two', async () => {
    const app = await openApp(browser(), {}, (sb) =>
      writeFile(
        join(getAutoMemPath(sb.ctx()), 'style.md'),
        memory('Code style', 'early returns', 'Line one.\nLine two.'),
      ),
    )
    const { page, sb } = app
    const file = join(getAutoMemPath(sb.ctx()), 'style.md')
    try {
      await page.locator('[data-relpath="style.md"]').click()
      await page.getByLabel('Content', { exact: true }).fill('Line one.\nLine two, mine.')
      writeFileSync(file, memory('Code style', 'early returns', 'Line one.\nLine two, theirs.'))
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      const conflict = page.getByRole('alert', { name: 'Edit conflict' })
      await conflict.waitFor()
      // The choices are in view without scrolling.
      for (const name of ['Take theirs', 'Merge…', 'Keep mine'])
        expect(await conflict.getByRole('button', { name }).isVisible()).toBe(true)
      expect(await conflict.locator('.diff-del').innerText()).toContain('Line two, theirs.')
      expect(await conflict.locator('.diff-add').innerText()).toContain('Line two, mine.')
      await screenshot(page, 'conflict')

      await conflict.getByRole('button', { name: 'Merge…' }).click()
      expect(await editorText(page, 'Merged text')).toContain('<<<<<<< on disk')
      expect(await conflict.getByRole('button', { name: 'Save merged' }).isDisabled()).toBe(true)
      await page.getByLabel('Merged text', { exact: true }).fill('Line one.\nLine two, theirs and mine.')
      await conflict.getByRole('button', { name: 'Save merged' }).click()
      await until(() => readFileSync(file, 'utf8').includes('Line two, theirs and mine.'))
    } finally {
      await app.close()
    }
  })
})

describe('5b. two windows on one app', () => {
  it('another window opening another project never takes this window’s unsaved edits into it', async () => {
    let other = ''
    const app = await openApp(browser(), {}, (sb) => {
      writeFile(join(getAutoMemPath(sb.ctx()), 'deploy.md'), memory('Deploy', 'shop deploy', 'shop steps'))
      other = join(sb.root, 'work', 'blog')
      mkdirSync(other, { recursive: true })
      execFileSync('git', ['init', '-q', other])
      writeFile(
        join(getAutoMemPath(sb.ctx({ projectRoot: other })), 'deploy.md'),
        memory('Deploy', 'blog deploy', 'blog steps'),
      )
    })
    const { page } = app
    const second = await browser().newPage()
    try {
      const blogFile = join(getAutoMemPath(app.sb.ctx({ projectRoot: other })), 'deploy.md')
      const shopFile = join(getAutoMemPath(app.sb.ctx()), 'deploy.md')
      const blogBefore = readFileSync(blogFile, 'utf8')
      await page.locator('[data-relpath="deploy.md"]').click()
      await until(async () => (await editorText(page)).trim() === 'shop steps')
      await setEditorText(page, 'shop steps, edited')

      await second.goto(app.web.url)
      await second.getByLabel('Open a project folder').fill(other)
      await second.getByLabel('Open a project folder').press('Enter')
      await second.getByText('blog deploy').waitFor()

      // The first window follows to blog; its edits stay, as shop's, and nothing can save them into blog.
      const left = page.getByRole('alert', { name: 'Edits left behind' })
      await left.waitFor()
      expect(await left.innerText()).toContain('deploy.md in proj')
      await page.getByText('blog deploy').waitFor()
      expect((await editorText(page)).trim()).toBe('shop steps, edited')
      expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true)
      expect(await page.getByRole('button', { name: 'Delete…' }).count()).toBe(0)
      await page.keyboard.press('ControlOrMeta+S')
      await page.waitForTimeout(300)
      expect(readFileSync(blogFile, 'utf8')).toBe(blogBefore)
      expect(await page.getByText('This memory changed on disk').count()).toBe(0)

      // Back in shop, they are saved there.
      await left.getByRole('button', { name: 'Open proj again' }).click()
      await page.getByText('shop deploy').waitFor()
      expect(await left.count()).toBe(0)
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await until(() => readFileSync(shopFile, 'utf8').includes('shop steps, edited'))
      expect(readFileSync(blogFile, 'utf8')).toBe(blogBefore)

      // A new memory not yet created is left behind the same way; Discard drops it.
      await page.getByRole('button', { name: 'New memory' }).first().click()
      await page.locator('input[name=name]').fill('Half-written')
      await second.getByLabel('Open a project folder').fill(other)
      await second.getByLabel('Open a project folder').press('Enter')
      await left.waitFor()
      expect(await left.innerText()).toContain('a new memory in proj')
      expect(await page.getByRole('button', { name: 'Create memory' }).isDisabled()).toBe(true)
      await left.getByRole('button', { name: 'Discard the edits' }).click()
      expect(await left.count()).toBe(0)
      expect(await page.locator('input[name=name]').count()).toBe(0)
      expect(readdirSync(join(getAutoMemPath(app.sb.ctx({ projectRoot: other }))))).toEqual(['deploy.md'])

      // A version open in History is shop's: when another window opens blog, it closes.
      await second.getByLabel('Open a project folder').fill(app.sb.project)
      await second.getByLabel('Open a project folder').press('Enter')
      await page.getByText('shop deploy').waitFor()
      await page.locator('[data-relpath="deploy.md"]').click()
      await page.locator('form.editor').getByRole('button', { name: 'History', exact: true }).click()
      await page.locator('.timeline-item').first().click()
      await page.getByLabel('Changes in this version').waitFor()
      await second.getByLabel('Open a project folder').fill(other)
      await second.getByLabel('Open a project folder').press('Enter')
      await page.getByRole('heading', { name: 'History', exact: true }).waitFor()
      await until(async () => (await page.getByLabel('Changes in this version').count()) === 0)
      await until(async () => (await page.locator('.timeline-item', { hasText: 'deploy.md' }).count()) > 0)
    } finally {
      await second.close()
      await app.close()
    }
  })
})

describe('6. the activity feed', () => {
  it('belongs to the workspace, survives a restart, collapses repeats, and clears its error badge once seen', async () => {
    let second = ''
    const app = await openApp(browser(), {}, (sb) => {
      writeFile(join(getAutoMemPath(sb.ctx()), 'a.md'), memory('Alpha', 'first', 'x'))
      second = join(sb.root, 'work', 'second')
      mkdirSync(second, { recursive: true })
    })
    const { page, host } = app
    try {
      // Two identical failures (as from a retrying sync) and one other entry.
      const { appendActivity, activityFileFor, newActivityItem } =
        await import('../src-main/host/activity/activity-store.js')
      const feed = activityFileFor(app.sb.ctx(), getAutoMemPath(app.sb.ctx()))
      await appendActivity(
        feed,
        newActivityItem({
          kind: 'sync',
          level: 'error',
          title: 'Team sync failed',
          detail: '401',
          files: [],
          count: 2,
        }),
      )
      await appendActivity(
        feed,
        newActivityItem({
          kind: 'extraction',
          level: 'success',
          title: 'Memory updated in proj',
          files: ['a.md'],
          runId: 'extraction-1',
        }),
      )
      await until(async () => (await page.getByTestId('activity-errors').count()) === 1)
      await nav(page, 'Activity')
      const failed = page.locator('.feed-item', { hasText: 'Team sync failed' })
      await until(async () => (await failed.getByText('×2').count()) === 1)
      expect(await failed.count()).toBe(1)
      expect(await page.getByTestId('activity-errors').count()).toBe(0)

      // Another workspace has its own feed.
      await page.getByLabel('Open a project folder').fill(second)
      await page.getByLabel('Open a project folder').press('Enter')
      await until(async () => (await page.getByText('Nothing has happened yet').count()) === 1)

      // After a restart the first workspace's feed is still there.
      await host.call('workspace/open', { projectRoot: app.sb.project })
      await page.reload()
      await nav(page, 'Activity')
      await page.getByText('Memory updated in proj').waitFor()
      await page.getByRole('button', { name: 'a.md' }).click()
      await until(async () => (await page.locator('input[name=name]').inputValue()) === 'Alpha')
    } finally {
      await app.close()
    }
  })
})

describe('8. dark theme and every screen', () => {
  it('follows the setting at once', async () => {
    const app = await openApp(browser(), {}, (sb) => {
      const dir = getAutoMemPath(sb.ctx())
      writeFile(
        join(dir, 'deploy.md'),
        memory(
          'Deploys go through make ship',
          'staging and production deploys run with make ship',
          'Run `make ship`.\n\n**Why:** it tags the release.',
          'reference',
        ),
      )
      writeFile(
        join(dir, 'tests.md'),
        memory(
          'Integration tests hit a real DB',
          'never mock the database in integration tests',
          'Use the docker-compose postgres.',
          'feedback',
        ),
      )
      writeFile(join(dir, 'MEMORY.md'), '- [Deploys](deploy.md) — make ship\n- [Tests](tests.md) — real DB\n')
    })
    const { page } = app
    try {
      await nav(page, 'Settings')
      await page.locator('select[name=theme]').selectOption('dark')
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')
      const bg = await page.evaluate(() => getComputedStyle(document.querySelector('.main')!).backgroundColor)
      expect(bg).toBe('rgb(21, 23, 26)')
      // Every screen in both themes and sizes: e2e/visual.e2e.test.ts, against committed baselines.
      await page.evaluate(() => localStorage.removeItem('memdir.theme'))
    } finally {
      await app.close()
    }
  })
})
