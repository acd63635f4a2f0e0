// `npm start` needs the Electron binary. Electron ≥ 42 downloads it lazily and electron-vite
// does not trigger that, so fetch it here once, unless the user points at an Electron they have.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

if (process.env.ELECTRON_EXEC_PATH || process.env.ELECTRON_OVERRIDE_DIST_PATH) process.exit(0)

const require = createRequire(import.meta.url)
const electronDir = dirname(require.resolve('electron/package.json'))
const pathFile = join(electronDir, 'path.txt')
const installed =
  existsSync(pathFile) && existsSync(join(electronDir, 'dist', readFileSync(pathFile, 'utf8')))
if (installed) process.exit(0)

console.log('memdir: fetching the Electron binary (first run only)…')
const r = spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'inherit' })
if (r.status !== 0) {
  console.error(
    'memdir: could not download Electron. Set ELECTRON_OVERRIDE_DIST_PATH to an installed Electron, ' +
      'or use `npm run web` to open the same UI in a browser.',
  )
  process.exit(r.status ?? 1)
}
