import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { _electron as electron } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { sandbox } from '../test/helpers/temp-env.js'
import { ROOT, screenshot } from './harness.js'

/** The Electron binary, if this machine has one (ELECTRON_OVERRIDE_DIST_PATH or a downloaded dist/). */
function electronBinary(): string | undefined {
  if (process.env.ELECTRON_EXEC_PATH && existsSync(process.env.ELECTRON_EXEC_PATH))
    return process.env.ELECTRON_EXEC_PATH
  const pkg = dirname(createRequire(import.meta.url).resolve('electron/package.json'))
  const pathFile = join(pkg, 'path.txt')
  const exe = existsSync(pathFile)
    ? readFileSync(pathFile, 'utf8').trim()
    : process.platform === 'win32'
      ? 'electron.exe'
      : 'electron'
  const candidate = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, exe)
    : join(pkg, 'dist', exe)
  return existsSync(candidate) ? candidate : undefined
}

const bin = electronBinary()
if (!bin) {
  console.warn(
    'e2e/electron: skipped — no Electron binary here (it cannot be downloaded on this machine). ' +
      'Set ELECTRON_OVERRIDE_DIST_PATH or run `npx install-electron` to run it.',
  )
}

describe('desktop app in Electron', () => {
  it.skipIf(!bin)(
    'opens the window and shows the workspace over IPC (skipped without an Electron binary)',
    async () => {
      const sb = sandbox()
      const env: Record<string, string> = {}
      for (const [k, v] of Object.entries({
        ...process.env,
        ...sb.env,
        MEMDIR_DATA_DIR: join(sb.root, 'app-data'),
        MEMDIR_NO_SINGLE_INSTANCE: '1',
      })) {
        if (v !== undefined && k !== 'ELECTRON_RUN_AS_NODE') env[k] = v
      }
      const app = await electron.launch({
        executablePath: bin!,
        args: [
          join(ROOT, 'out', 'main', 'main.js'),
          '--no-sandbox',
          `--user-data-dir=${join(sb.root, 'electron-profile')}`,
        ],
        env,
      })
      try {
        const page = await app.firstWindow()
        await page.getByRole('heading', { name: 'Memories', exact: true }).waitFor()
        expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe(
          'undefined',
        )
        expect(
          await page.evaluate(() => Object.keys((window as unknown as { memdir: object }).memdir).length),
        ).toBeGreaterThan(10)
        await screenshot(page, 'electron-window')
      } finally {
        await app.close()
      }
    },
  )
})
