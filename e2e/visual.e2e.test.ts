import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import pixelmatch from 'pixelmatch'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { getAutoMemPath } from '../src-main/core/paths/auto-mem-path.js'
import { writeFile } from '../test/helpers/temp-env.js'
import { memoryFile, nav, openApp, ROOT, useBrowser } from './harness.js'

/**
 * Visual regression: every screen in light and dark at 1024×700 and 1440×900, compared with the
 * baselines committed in e2e/visual-baselines. A layout change shows here as a failing test with
 * the new screenshot and a diff image in test-results/visual/.
 *
 * The workspace lives at a fixed temp path and its memories at fixed ages, so paths and "3 days ago"
 * are the same on every run, and Memdir is on its PATH (no checkout path on screen); what still moves
 * (clock times, "just now") is masked.
 * After an intended change: MEMDIR_UPDATE_VISUAL=1 npx vitest run --project e2e e2e/visual
 */

const browser = useBrowser()
const BASELINES = join(ROOT, 'e2e', 'visual-baselines')
const RESULTS = join(ROOT, 'test-results', 'visual')
const UPDATE = process.env.MEMDIR_UPDATE_VISUAL === '1'
/** Per-pixel colour distance pixelmatch tolerates (anti-aliasing), and the share of pixels that may differ. */
const PIXEL_THRESHOLD = 0.1
const MAX_DIFF_RATIO = 0.002

const SCREENS = [
  'Memories',
  'MEMORY.md',
  'Review inbox',
  'History',
  'Activity',
  'Prompt',
  'Recall',
  'Health',
  'Team sync',
  'Settings',
] as const
const SIZES = [
  [1024, 700],
  [1440, 900],
] as const
const THEMES = ['light', 'dark'] as const
const DAY = 86_400_000

/** What each screen shows once its data is in (every screen also waits for no "Loading…" and the fonts). */
const READY: Partial<Record<(typeof SCREENS)[number], string>> = {
  Memories: '.cm-content',
  'Review inbox': 'text=Inbox is empty',
  History: '[aria-label="History entries"]',
  Activity: '[aria-label="Dream gates"]',
  Prompt: '[data-testid="prompt-text"]',
  Health: '[aria-label="Findings"]',
  'Team sync': '[data-testid="team-state"]',
  Settings: '[aria-label="Integrations"] pre',
}

async function settled(page: Page, screen: (typeof SCREENS)[number]): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  const ready = READY[screen]
  if (ready) await page.locator(ready).first().waitFor()
  await page.waitForFunction(() => !document.querySelector('.loading'))
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
}

/** Text that differs from run to run by nature: times of day and "now"-relative stamps. */
const MOVING = 'time, .age, [data-moving]'

async function compare(page: Page, name: string): Promise<string | undefined> {
  await page.waitForTimeout(200)
  const shot = await page.screenshot({
    animations: 'disabled',
    caret: 'hide',
    mask: [page.locator(MOVING)],
    maskColor: '#888888',
  })
  const file = join(BASELINES, `${name}.png`)
  if (UPDATE) {
    writeFileSync(file, shot)
    return undefined
  }
  if (!existsSync(file)) return `${name}: no baseline (run with MEMDIR_UPDATE_VISUAL=1 and commit it)`
  const want = PNG.sync.read(readFileSync(file))
  const got = PNG.sync.read(shot)
  if (want.width !== got.width || want.height !== got.height)
    return `${name}: ${got.width}×${got.height}, baseline ${want.width}×${want.height}`
  const diff = new PNG({ width: want.width, height: want.height })
  const changed = pixelmatch(want.data, got.data, diff.data, want.width, want.height, {
    threshold: PIXEL_THRESHOLD,
  })
  const ratio = changed / (want.width * want.height)
  if (ratio <= MAX_DIFF_RATIO) return undefined
  mkdirSync(RESULTS, { recursive: true })
  writeFileSync(join(RESULTS, `${name}.actual.png`), shot)
  writeFileSync(join(RESULTS, `${name}.diff.png`), PNG.sync.write(diff))
  return `${name}: ${(ratio * 100).toFixed(2)}% of pixels differ (see test-results/visual/${name}.diff.png)`
}

describe('visual regression', () => {
  it('every screen in light and dark at 1024×700 and 1440×900 matches its baseline, and nothing spills past the window', async () => {
    mkdirSync(BASELINES, { recursive: true })
    const now = Date.now()
    const app = await openApp(
      browser(),
      {},
      (sb) => {
        // Memdir installed on PATH, as a user has it: Settings then shows `memdir`, not the path of
        // this checkout and of node, which differ from machine to machine.
        const bin = join(sb.root, 'bin')
        mkdirSync(bin)
        symlinkSync(join(ROOT, 'bin', 'memdir.js'), join(bin, 'memdir'))
        sb.env.PATH = [bin, sb.env.PATH].filter(Boolean).join(delimiter)
        const dir = getAutoMemPath(sb.ctx())
        const put = (file: string, content: string, daysOld: number) => {
          const p = writeFile(join(dir, file), content)
          const at = new Date(now - daysOld * DAY)
          utimesSync(p, at, at)
        }
        put(
          'deploy.md',
          memoryFile(
            'Deploys go through make ship',
            'staging and production deploys run with make ship',
            'Run `make ship`.\n\n**Why:** it tags the release.\n\n**How to apply:** never push tags by hand.',
            'reference',
          ),
          3,
        )
        put(
          'feedback_tests.md',
          memoryFile(
            'Integration tests hit a real DB',
            'never mock the database in integration tests',
            'Use the docker-compose postgres.\n\n**Why:** a mocked DB hid a broken migration.',
            'feedback',
          ),
          40,
        )
        put(
          'user_role.md',
          memoryFile(
            'Senior Go engineer',
            'new to the React side',
            'Explain frontend in backend terms.',
            'user',
          ),
          1,
        )
        put(
          'MEMORY.md',
          '- [Deploys](deploy.md) — make ship\n- [Tests](feedback_tests.md) — real DB\n- [Gone](gone.md) — removed\n',
          3,
        )
      },
      'memdir-visual',
    )
    const { page } = app
    const failures: string[] = []
    try {
      for (const theme of THEMES) {
        await page.evaluate((t) => localStorage.setItem('memdir.theme', t), theme)
        await page.reload()
        await page.getByRole('heading', { name: 'Memories', exact: true }).waitFor()
        // The list's health badges are in (Health is checked once the first screen is drawn).
        await page.getByTestId('health-badge').first().waitFor()
        for (const [w, h] of SIZES) {
          await page.setViewportSize({ width: w, height: h })
          for (const screen of SCREENS) {
            await nav(page, screen)
            if (screen === 'Memories') await page.locator('[data-relpath="deploy.md"]').click()
            await settled(page, screen)
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            )
            if (overflow > 0) failures.push(`${screen} at ${w}×${h}: ${overflow}px wider than the window`)
            const failed = await compare(
              page,
              `${theme}-${w}x${h}-${screen.toLowerCase().replace(/[^a-z]+/g, '-')}`,
            )
            if (failed) failures.push(failed)
          }
        }
      }
      await page.evaluate(() => localStorage.removeItem('memdir.theme'))
    } finally {
      await app.close()
    }
    expect(failures).toEqual([])
  })
})
