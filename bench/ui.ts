import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { createHost } from '../src-main/host/app/host.js'
import { startWebServer } from '../src-main/web/web-server.js'
import { sanitizePath } from '../src-main/core/paths/sanitize.js'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/chromium.js'
import { benchDir, generateMemories, percentile, ratio, table } from './lib.js'

const ROOT = new URL('..', import.meta.url).pathname

/**
 * Runs in the page (as a string, so the bundler's helpers never leak into it): types one character
 * and resolves with [ms to the next painted frame, ms until the hits for exactly that text are painted].
 */
const KEYSTROKE_PROBE = `(c) => new Promise((resolve) => {
  const el = document.querySelector('input[aria-label="Search memories"]')
  const pane = el.closest('[aria-label="Memory browser"]')
  const start = performance.now()
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, el.value + c)
  const want = el.value
  el.dispatchEvent(new Event('input', { bubbles: true }))
  let framed = 0
  requestAnimationFrame(() => requestAnimationFrame(() => { framed = performance.now() - start }))
  const painted = () => requestAnimationFrame(() => requestAnimationFrame(function wait() {
    if (framed) resolve([framed, performance.now() - start]); else setTimeout(wait, 1)
  }))
  if (pane.getAttribute('data-searched-for') === want) return painted()
  const mo = new MutationObserver(() => {
    if (pane.getAttribute('data-searched-for') !== want) return
    mo.disconnect()
    painted()
  })
  mo.observe(pane, { attributes: true, attributeFilter: ['data-searched-for'] })
})`

async function measure(count: number) {
  const { dir, cleanup } = benchDir(`ui${count}`)
  const env = {
    HOME: join(dir, 'home'),
    CLAUDE_CONFIG_DIR: join(dir, 'home', '.claude'),
    MEMDIR_DATA_DIR: join(dir, 'data'),
  }
  const project = join(dir, 'proj')
  generateMemories(join(env.CLAUDE_CONFIG_DIR, 'projects', sanitizePath(project), 'memory'), count)
  const { mkdirSync } = await import('node:fs')
  mkdirSync(project, { recursive: true })
  const host = await createHost({ env, projectRoot: project })
  const web = await startWebServer({ host, rendererDir: join(ROOT, 'out', 'renderer') })
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } })
    // JavaScript the first screen needed: every script fetched until the list first renders.
    let firstScreenJs = 0
    let listShown = false
    page.on('response', async (r) => {
      if (listShown || !r.url().endsWith('.js')) return
      firstScreenJs += (await r.body().catch(() => Buffer.alloc(0))).length
    })
    const t = performance.now()
    await page.goto(web.url)
    await page.locator('.mem-row').first().waitFor()
    const firstRender = performance.now() - t
    listShown = true
    const search = page.getByLabel('Search memories')
    // Warm-up: the full-text index is built in the background after start.
    await search.fill('warmup')
    await page.locator('[data-searched-for="warmup"]').waitFor({ timeout: 120_000 })
    await search.fill('')
    const frame: number[] = []
    const results: number[] = []
    // "feature flag" appears only in bodies: the results need the full-text index.
    for (const ch of 'feature flag'.split('')) {
      // keystroke → next painted frame (the list's synchronous filter: today's name filter), and
      // keystroke → the ranked full-text results for exactly that text painted.
      const [f, r] = (await page.evaluate(`(${KEYSTROKE_PROBE})(${JSON.stringify(ch)})`)) as [number, number]
      frame.push(f)
      results.push(r)
    }
    frame.sort((a, b) => a - b)
    results.sort((a, b) => a - b)
    const latencies = frame
    return {
      firstRender,
      firstScreenJs,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      searchP50: percentile(results, 50),
      searchP95: percentile(results, 95),
    }
  } finally {
    await browser.close()
    await web.close()
    await host.close()
    cleanup()
  }
}

export async function benchUi(): Promise<void> {
  console.log(
    '\n## bench/ui — Chromium, memory list first render and per-keystroke latency: list filter (next frame) and full-text body search (ranked results painted)',
  )
  if (!existsSync(CHROMIUM) || !existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) {
    console.log('skipped: needs /usr/bin/chromium and `npm run build`')
    return
  }
  const base = await measure(200)
  const big = await measure(10000)
  table([
    {
      memories: 200,
      'first-screen JS KiB': (base.firstScreenJs / 1024).toFixed(0),
      'first render ms': base.firstRender.toFixed(0),
      'keystroke p50 ms': base.p50.toFixed(1),
      'keystroke p95 ms': base.p95.toFixed(1),
      'body search p50 ms': base.searchP50.toFixed(1),
      'body search p95 ms': base.searchP95.toFixed(1),
      'search vs keystroke p95': ratio(base.searchP95, base.p95),
    },
    {
      memories: 10000,
      'first-screen JS KiB': (big.firstScreenJs / 1024).toFixed(0),
      'first render ms': big.firstRender.toFixed(0),
      'keystroke p50 ms': big.p50.toFixed(1),
      'keystroke p95 ms': big.p95.toFixed(1),
      'body search p50 ms': big.searchP50.toFixed(1),
      'body search p95 ms': big.searchP95.toFixed(1),
      'search vs keystroke p95': ratio(big.searchP95, big.p95),
      'render vs 200': ratio(big.firstRender, base.firstRender),
      'p95 vs 200': ratio(big.p95, base.p95),
    },
  ])
}
