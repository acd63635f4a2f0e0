import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { clearAutoMemPathCache } from '../src-main/core/paths/auto-mem-path.js'
import { createHost, type Host } from '../src-main/host/app/host.js'
import { startWebServer, type RunningWebServer } from '../src-main/web/web-server.js'
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/chromium.js'
import { sandbox, type Sandbox } from '../test/helpers/temp-env.js'
export { until } from '../test/helpers/until.js'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const RENDERER = join(ROOT, 'out', 'renderer')
export { CHROMIUM, CHROMIUM_ARGS }
const SCREENSHOTS = join(ROOT, 'e2e', 'screenshots')

export function assertPrerequisites(): void {
  if (!existsSync(join(RENDERER, 'index.html')))
    throw new Error('out/renderer is missing: run `npm run build` before the e2e tests')
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`)
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
}

/**
 * The one browser of an e2e file: checks the build and Chromium, launches before the file's tests
 * and closes after them. Call it at the top of the file; the getter is valid inside tests.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    assertPrerequisites()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (!browser) throw new Error('useBrowser(): the browser is only there inside the tests')
    return browser
  }
}

export interface Look {
  theme: 'light' | 'dark'
  width: number
  height: number
  /** The browser's language (default: Chromium's, en-US). */
  locale?: string
}

/** The looks every workspace point is checked in: both themes at the smallest supported window. */
export const SMALL_LOOKS: readonly Look[] = [
  { theme: 'light', width: 1024, height: 700 },
  { theme: 'dark', width: 1024, height: 700 },
]

/** Fails when `el` reaches past the window or is cut inside its own box (text-overflow, a narrow chip). */
export async function fitsInWindow(page: Page, selector: string): Promise<void> {
  const problems = await page.locator(selector).evaluateAll((els) =>
    els.flatMap((el) => {
      const r = el.getBoundingClientRect()
      const out: string[] = []
      if (r.right > window.innerWidth + 0.5 || r.left < -0.5)
        out.push(`reaches past the window (${r.left}–${r.right})`)
      if (el.scrollWidth > el.clientWidth + 1) out.push(`is cut (${el.scrollWidth} > ${el.clientWidth})`)
      return out.map((p) => `${el.textContent?.trim().slice(0, 40)} ${p}`)
    }),
  )
  if (problems.length) throw new Error(`${selector}: ${problems.join('; ')}`)
}

export interface App {
  sb: Sandbox
  host: Host
  web: RunningWebServer
  page: Page
  close: () => Promise<void>
}

/** A real host over the browser transport on a sandboxed HOME, with the built renderer in Chromium. */
export async function openApp(
  browser: Browser,
  env: Record<string, string> = {},
  prepare?: (sb: Sandbox) => void,
  /** A temp dir name fixed in advance (paths on screen the same every run), instead of a random one. */
  fixedRoot?: string,
  /** The theme and window size the page opens with (default: the system's theme, 1360×860). */
  look?: Look,
): Promise<App> {
  const sb = sandbox({ MEMDIR_DATA_DIR: '', ...env }, fixedRoot)
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'app-data')
  mkdirSync(sb.env.MEMDIR_DATA_DIR, { recursive: true })
  prepare?.(sb)
  clearAutoMemPathCache()
  const host = await createHost({
    env: sb.env,
    projectRoot: sb.project,
    resourcesDir: join(ROOT, 'resources'),
    teamPullIntervalMs: 60_000,
  })
  const web = await startWebServer({ host, rendererDir: RENDERER })
  const page = await browser.newPage({
    viewport: { width: look?.width ?? 1360, height: look?.height ?? 860 },
    ...(look?.locale ? { locale: look.locale } : {}),
  })
  if (look) await page.addInitScript((t) => localStorage.setItem('memdir.theme', t), look.theme)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(web.url)
  await page.getByRole('heading', { name: 'Memories', exact: true }).waitFor()
  return {
    sb,
    host,
    web,
    page,
    close: async () => {
      await page.close()
      await web.close()
      await host.close()
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`)
    },
  }
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.waitForTimeout(150)
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) })
}

/** Writes a Claude Code session transcript turn by turn, each ending without tool_use (a turn end). */
export function fakeSession(sessionFile: string) {
  let turn = 0
  const entry = (uuid: string, parent: string | null, type: string, content: unknown, extra = {}) =>
    JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      type,
      uuid,
      sessionId: 's',
      message: { role: type, content, ...extra },
    }) + '\n'
  return {
    endTurn(said: string) {
      const n = ++turn
      if (!existsSync(sessionFile)) writeFileSync(sessionFile, '')
      appendFileSync(
        sessionFile,
        entry(`u${n}`, n > 1 ? `a${n - 1}` : null, 'user', said) +
          entry(`a${n}`, `u${n}`, 'assistant', [{ type: 'text', text: 'Noted.' }], {
            id: `m${n}`,
            stop_reason: 'end_turn',
          }),
      )
    },
  }
}

/** The text in the Markdown editor (CodeMirror: one element per line). */
/**
 * Replaces the editor's text as a user does (select all, type). Playwright's fill() on
 * CodeMirror's contenteditable can leave the last empty line of the old text behind under load.
 */
export async function setEditorText(page: Page, text: string, label = 'Content'): Promise<void> {
  await page.getByLabel(label, { exact: true }).click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.insertText(text)
}

export async function editorText(page: Page, label = 'Content'): Promise<string> {
  const lines = await page.getByLabel(label, { exact: true }).locator('.cm-line').allTextContents()
  return lines.join('\n')
}

/** Opens a view from the sidebar by its name. */
export const nav = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('button', { name }).click()

/** A memory file as Claude Code writes one. */
export const memoryFile = (name: string, description: string, body: string, type = 'project') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`
