import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { sanitizePath } from '../src-main/core/paths/sanitize.js'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/chromium.js'
import { signalAndWait } from '../test/helpers/child-process.js'
import {
  benchDir,
  generateMemories,
  percentile,
  ratio,
  startMemdirWeb,
  table,
  waitUntilSettled,
} from './lib.js'

const ROOT = new URL('..', import.meta.url).pathname
const SIZES = [200, 10_000] as const
/** Fresh loads of a window on a settled app, per size (after the one at launch). */
const LOAD_ROUNDS = 7
/** What is typed, one character at a time: 112 keystrokes, words of the generated memories' bodies. */
const QUERIES = [
  'feature flag',
  'deploy pipeline',
  'subsystem 12',
  'incident 77',
  'background detail',
  'check the flag first',
  'memory 0042',
  'rule 5 keep',
  'fact number 9',
]

/**
 * Runs in the page (as a string, so the bundler's helpers never leak into it): types one character
 * and resolves with [ms until the next frame is painted, ms until the ranked full-text hits for exactly
 * that text are painted]. "Painted" is a task posted from the frame's requestAnimationFrame: it runs
 * once that frame has been drawn.
 */
const KEYSTROKE_PROBE = `(c) => new Promise((resolve) => {
  const el = document.querySelector('input[aria-label="Search memories"]')
  const pane = el.closest('[aria-label="Memory browser"]')
  const afterPaint = (fn) => requestAnimationFrame(() => {
    const ch = new MessageChannel()
    ch.port1.onmessage = fn
    ch.port2.postMessage(0)
  })
  const start = performance.now()
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, el.value + c)
  const want = el.value
  el.dispatchEvent(new Event('input', { bubbles: true }))
  let framed = 0
  afterPaint(() => { framed = performance.now() - start })
  const painted = () => afterPaint(function wait() {
    if (framed) resolve([framed, performance.now() - start]); else setTimeout(wait, 1)
  })
  if (pane.getAttribute('data-searched-for') === want) return painted()
  const mo = new MutationObserver(() => {
    if (pane.getAttribute('data-searched-for') !== want) return
    mo.disconnect()
    painted()
  })
  mo.observe(pane, { attributes: true, attributeFilter: ['data-searched-for'] })
})`

/**
 * The floor of a keystroke in the same page: one character typed into an input outside the app
 * (nothing listens to it), until the next frame is painted, measured as the probe above measures
 * the filter. It is what the display's frame wait and the page's own frame work cost, which no
 * change to the list can remove.
 */
const FLOOR_PROBE = `(c) => new Promise((resolve) => {
  let el = document.getElementById('bench-floor-input')
  if (!el) {
    el = document.createElement('input')
    el.id = 'bench-floor-input'
    el.style.cssText = 'position:fixed;left:-200px;top:0;width:100px'
    document.body.append(el)
  }
  const start = performance.now()
  el.value += c
  el.dispatchEvent(new Event('input', { bubbles: true }))
  requestAnimationFrame(() => {
    const ch = new MessageChannel()
    ch.port1.onmessage = () => resolve(performance.now() - start)
    ch.port2.postMessage(0)
  })
})`

interface Workspace {
  count: number
  /** The app's host and web server, in its own process (as the desktop app's main process is). */
  app: ChildProcess
  url: string
  cleanup: () => void
}

/** `memdir web` for a generated project: the host the desktop app runs, serving the built renderer. */
async function openWorkspace(count: number): Promise<Workspace> {
  const { dir, cleanup } = benchDir(`ui${count}`)
  const env = {
    PATH: process.env.PATH,
    HOME: join(dir, 'home'),
    CLAUDE_CONFIG_DIR: join(dir, 'home', '.claude'),
    MEMDIR_DATA_DIR: join(dir, 'data'),
  }
  const project = join(dir, 'proj')
  generateMemories(join(env.CLAUDE_CONFIG_DIR, 'projects', sanitizePath(project), 'memory'), count)
  mkdirSync(project, { recursive: true })
  const { app, url } = await startMemdirWeb(env, project)
  return { count, app, url, cleanup }
}

/**
 * Runs in the page before its scripts: once the first memory row is in the document, reports when
 * that frame is painted (a task posted from its requestAnimationFrame), in ms from the start of
 * the navigation, through a binding. Nothing of Playwright's runs in the page meanwhile: polling for
 * the mark (waitForFunction) evaluated Playwright's injected script during the load, ~50 ms the
 * measured page spent on the harness (40–85 ms lower medians without it, 12 loads each way).
 */
const FIRST_ROW_PROBE = `new MutationObserver((_, mo) => {
  if (!document.querySelector('.mem-row')) return
  mo.disconnect()
  requestAnimationFrame(() => {
    const ch = new MessageChannel()
    ch.port1.onmessage = () => window.__memdirFirstRowPainted(performance.now())
    ch.port2.postMessage(0)
  })
}).observe(document, { childList: true, subtree: true })`

/** `promise`, or an error naming `what` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench/ui: no ${what} after ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

/** A fresh browser context (nothing cached, as at launch) until the list's first row is painted. */
async function firstRender(browser: Browser, ws: Workspace): Promise<{ ms: number; page: Page; js: number }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } })
  const page = await context.newPage()
  let painted: (ms: number) => void = () => {}
  const firstRow = new Promise<number>((resolve) => (painted = resolve))
  await page.exposeBinding('__memdirFirstRowPainted', (_source, ms: number) => painted(ms))
  await page.addInitScript(FIRST_ROW_PROBE)
  await page.goto(ws.url, { waitUntil: 'commit' })
  const ms = await within(firstRow, 120_000, 'the first memory row')
  // The scripts fetched by then, as the page's own resource timing saw them (reading response
  // bodies over the DevTools protocol during the load would slow the load it measures).
  const js = await page.evaluate(
    (by) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.js') && e.startTime < by)
        .reduce((n, e) => n + (e as PerformanceResourceTiming).decodedBodySize, 0),
    ms,
  )
  return { ms, page, js }
}

async function typeQuery(
  page: Page,
  query: string,
  frame: number[],
  results: number[],
  floor: number[],
): Promise<void> {
  await page.getByLabel('Search memories').fill('')
  for (const ch of query.split('')) {
    floor.push((await page.evaluate(`(${FLOOR_PROBE})(${JSON.stringify(ch)})`)) as number)
    const [f, r] = (await page.evaluate(`(${KEYSTROKE_PROBE})(${JSON.stringify(ch)})`)) as [number, number]
    frame.push(f)
    results.push(r)
  }
}

export async function benchUi(): Promise<void> {
  console.log(
    '\n## bench/ui — Chromium: first render of the memory list (at launch, and of a window opened on the settled app), the first search after launch (index build included), and per keystroke the list filter (next painted frame) and the full-text body search (ranked hits painted); 200 and 10,000 memories interleaved',
  )
  if (!existsSync(CHROMIUM) || !existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) {
    console.log('skipped: needs /usr/bin/chromium and `npm run build`')
    return
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  const spaces: Workspace[] = []
  try {
    const stats = new Map<
      number,
      {
        atLaunch: number
        loads: number[]
        js: number
        firstSearch: number
        frame: number[]
        results: number[]
        floor: number[]
      }
    >()
    const pages = new Map<number, Page>()
    // Launch: the workspace opens, the page loads at once, and the first search waits for the index.
    for (const count of SIZES) {
      const ws = await openWorkspace(count)
      spaces.push(ws)
      const { ms, page, js } = await firstRender(browser, ws)
      const t = performance.now()
      await page.getByLabel('Search memories').fill('flag')
      await page.locator('[data-searched-for="flag"]').waitFor({ timeout: 120_000 })
      stats.set(count, {
        atLaunch: ms,
        loads: [],
        js,
        firstSearch: performance.now() - t,
        frame: [],
        results: [],
        floor: [],
      })
      pages.set(count, page)
    }
    // A window opened on a running app: each host done with its launch work (history, index).
    for (const ws of spaces) await waitUntilSettled(ws.app.pid!)
    for (let round = 0; round < LOAD_ROUNDS; round++)
      for (const ws of spaces) {
        const { ms, page } = await firstRender(browser, ws)
        stats.get(ws.count)!.loads.push(ms)
        await page.context().close()
      }
    for (const query of QUERIES)
      for (const count of SIZES) {
        const s = stats.get(count)!
        await typeQuery(pages.get(count)!, query, s.frame, s.results, s.floor)
      }
    const rows = SIZES.map((count) => {
      const s = stats.get(count)!
      for (const a of [s.loads, s.frame, s.results, s.floor]) a.sort((x, y) => x - y)
      return { count, ...s }
    })
    const [base, big] = rows as [(typeof rows)[0], (typeof rows)[0]]
    table(
      rows.map((r) => ({
        memories: r.count,
        keystrokes: r.frame.length,
        'first-screen JS KiB': (r.js / 1024).toFixed(0),
        'first render at launch ms': r.atLaunch.toFixed(0),
        [`first render ms (median of ${LOAD_ROUNDS})`]: percentile(r.loads, 50).toFixed(0),
        'first search after launch ms': r.firstSearch.toFixed(0),
        'floor keystroke p50 / p95 ms': `${percentile(r.floor, 50).toFixed(1)} / ${percentile(r.floor, 95).toFixed(1)}`,
        'filter keystroke p50 / p95 ms': `${percentile(r.frame, 50).toFixed(1)} / ${percentile(r.frame, 95).toFixed(1)}`,
        'filter p95 vs floor': ratio(percentile(r.frame, 95), percentile(r.floor, 95)),
        'body search p50 / p95 ms': `${percentile(r.results, 50).toFixed(1)} / ${percentile(r.results, 95).toFixed(1)}`,
        ...(r === big
          ? {
              'render vs 200': ratio(percentile(big.loads, 50), percentile(base.loads, 50)),
              'search p95 vs 200': ratio(percentile(big.results, 95), percentile(base.results, 95)),
            }
          : {}),
      })),
    )
  } finally {
    await browser.close()
    for (const ws of spaces) {
      await signalAndWait(ws.app, 'SIGTERM')
      ws.cleanup()
    }
  }
}
