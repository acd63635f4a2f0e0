import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { createHost } from '../src-main/host/host.js'
import { startWebServer } from '../src-main/web/web-server.js'
import { sanitizePath } from '../src-main/core/paths/sanitize.js'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/chromium.js'
import { benchDir, generateMemories, percentile, ratio, table } from './lib.js'

const ROOT = new URL('..', import.meta.url).pathname

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
    const latencies: number[] = []
    for (const ch of 'subsystem 1'.split('')) {
      // time from the keystroke to the next painted frame
      const ms = await search.evaluate(
        (el: HTMLInputElement, c) =>
          new Promise<number>((resolve) => {
            const start = performance.now()
            const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
            setter.call(el, el.value + c)
            el.dispatchEvent(new Event('input', { bubbles: true }))
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)))
          }),
        ch,
      )
      latencies.push(ms)
    }
    latencies.sort((a, b) => a - b)
    return { firstRender, firstScreenJs, p50: percentile(latencies, 50), p95: percentile(latencies, 95) }
  } finally {
    await browser.close()
    await web.close()
    await host.close()
    cleanup()
  }
}

export async function benchUi(): Promise<void> {
  console.log('\n## bench/ui — Chromium, memory list first render and per-keystroke filter latency')
  if (!existsSync(CHROMIUM) || !existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) {
    console.log('skipped: needs /usr/bin/chromium and `npm run build`')
    return
  }
  const base = await measure(200)
  const big = await measure(10000)
  table([
    {
      memories: 200,
      'first-screen JS KB': (base.firstScreenJs / 1024).toFixed(0),
      'first render ms': base.firstRender.toFixed(0),
      'keystroke p50 ms': base.p50.toFixed(1),
      'keystroke p95 ms': base.p95.toFixed(1),
    },
    {
      memories: 10000,
      'first-screen JS KB': (big.firstScreenJs / 1024).toFixed(0),
      'first render ms': big.firstRender.toFixed(0),
      'keystroke p50 ms': big.p50.toFixed(1),
      'keystroke p95 ms': big.p95.toFixed(1),
      'render vs 200': ratio(big.firstRender, base.firstRender),
      'p95 vs 200': ratio(big.p95, base.p95),
    },
  ])
}
