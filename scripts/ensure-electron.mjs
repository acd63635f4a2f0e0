// `npm start` needs the Electron binary. Electron ≥ 42 downloads it lazily and electron-vite
// does not trigger that, so fetch it here once, unless the user points at an Electron they have.
// A failure is one readable paragraph, never the downloader's stack trace.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

if (process.env.ELECTRON_EXEC_PATH || process.env.ELECTRON_OVERRIDE_DIST_PATH) process.exit(0)

const require = createRequire(import.meta.url)
const electronDir = dirname(require.resolve('electron/package.json'))
const electron = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'))
const pathFile = join(electronDir, 'path.txt')
const installed =
  existsSync(pathFile) && existsSync(join(electronDir, 'dist', readFileSync(pathFile, 'utf8')))
if (installed) process.exit(0)

const [major, minor] = process.versions.node.split('.').map(Number)
const oldNode = major < 22 || (major === 22 && minor < 12)

console.log(`memdir: fetching the Electron ${electron.version} binary (first run only)…`)
const r = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
  stdio: ['ignore', 'inherit', 'pipe'],
  encoding: 'utf8',
})
if (r.status !== 0) {
  // The downloader's last meaningful line says why (offline, proxy, 404); the rest is its stack.
  const reason =
    (r.stderr ?? '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => /^\w*Error\b|ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ETIMEDOUT/.test(l)) ?? 'the download failed'
  console.error(
    [
      '',
      `memdir: the desktop app could not start because the Electron ${electron.version} binary could not be downloaded (${reason}).`,
      oldNode
        ? `This Electron needs Node ${electron.engines?.node ?? '>= 22.12'} to install; this is Node ${process.versions.node}.`
        : '',
      'Two ways on: point ELECTRON_OVERRIDE_DIST_PATH at the folder of an Electron you already have',
      '(e.g. ELECTRON_OVERRIDE_DIST_PATH=/opt/electron npm start), or run `npm run web` to open the',
      'same UI in your browser (it needs no Electron).',
      '',
    ]
      .filter(Boolean)
      .join('\n'),
  )
  process.exit(1)
}
