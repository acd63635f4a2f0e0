import { execFile, fork } from 'node:child_process'
import { cpSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { sandbox, tempDir, writeFile } from './helpers/temp-env.js'

/** Minimal RFC 4180 reader: quoted fields may hold commas, quotes ("") and newlines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field.trim())
      field = ''
    } else if (c === '\n') {
      row.push(field.trim())
      rows.push(row)
      row = []
      field = ''
    } else if (c !== '\r') field += c
  }
  if (field || row.length) rows.push([...row, field.trim()])
  return rows
}

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MAIN = join(ROOT, 'out', 'main', 'main.js')

/** Runs the built main bundle in Node with a recording `electron` stub; returns what it configured. */
async function runBuiltMain(dataDir = tempDir()): Promise<Map<string, unknown[]>> {
  const sb = sandbox()
  const seen = new Map<string, unknown[]>()
  const child = fork(MAIN, [], {
    execArgv: ['--import', join(ROOT, 'test', 'electron-stub', 'register.mjs')],
    env: { ...sb.env, PATH: process.env.PATH, MEMDIR_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let stderr = ''
  child.stderr?.on('data', (d) => (stderr += d))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`main bundle did not finish: ${stderr}`)), 15_000)
    child.on('message', (m: { kind: string; data: unknown }) => {
      seen.set(m.kind, [...(seen.get(m.kind) ?? []), m.data])
      if (m.kind === 'done') {
        clearTimeout(timer)
        resolve()
      }
    })
    child.on('exit', (code) => code && reject(new Error(`main exited ${code}: ${stderr}`)))
  })
  child.kill()
  return seen
}

describe('Electron shell security (built bundle)', () => {
  it('creates its window with the security list of DESIGN.md', async () => {
    const seen = await runBuiltMain()
    const [opts] = seen.get('browserWindow') as { webPreferences: Record<string, unknown> }[]
    expect(opts!.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
    expect(String(opts!.webPreferences.preload)).toMatch(/index\.cjs$/)
    expect(seen.get('loadURL')).toEqual(['app://memdir/index.html'])
    expect(seen.get('protocol')).toEqual(['app'])
    expect(seen.get('windowOpen')).toEqual([['deny', 'deny', 'deny']])
    expect(seen.get('openExternal')).toEqual(['https://github.com/a'])
    expect(seen.get('navigate')).toEqual([
      { event: 'will-navigate', prevented: true },
      { event: 'will-frame-navigate', prevented: true },
    ])
    expect(seen.get('permission')).toEqual([false])
    expect(seen.get('permissionCheck')).toEqual([false])
    expect(seen.get('singleInstance')).toEqual([true])
    expect(seen.get('ipc')).toEqual(['memdir:rpc'])
  })

  it('lives in the tray: menu, login item from settings', async () => {
    const seen = await runBuiltMain()
    expect(String(seen.get('tray')?.[0])).toMatch(/resources\/icons\/trayTemplate\.png$/)
    expect(seen.get('trayMenu')?.at(-1)).toEqual([
      'Open Memdir',
      'Sync now',
      'Pause extraction',
      'No activity yet',
      'Quit Memdir',
    ])
    expect(seen.get('loginItem')).toEqual([{ openAtLogin: false }])
  })

  it('moves a plain team token and API key from the settings file to safeStorage on first start', async () => {
    const data = tempDir()
    writeFile(
      join(data, 'settings.json'),
      JSON.stringify({
        teamUrl: 'https://team.example',
        teamToken: 'tmt_plain_token',
        apiKey: 'sk-ant-plain',
      }),
    )
    await runBuiltMain(data)
    const settings = readFileSync(join(data, 'settings.json'), 'utf8')
    expect(settings).not.toContain('tmt_plain_token')
    expect(settings).not.toContain('sk-ant-plain')
    expect(JSON.parse(settings)).toEqual({
      teamUrl: 'https://team.example',
      secrets: { teamToken: 'keychain', apiKey: 'keychain' },
    })
    // Encrypted by (the stub of) safeStorage, readable by the user only.
    const stored = join(data, 'secrets', 'teamToken.keychain')
    expect(readFileSync(stored).subarray(0, 8).toString()).toBe('stubenc:')
    expect(readFileSync(stored, 'utf8')).not.toContain('tmt_plain_token')
    expect(statSync(stored).mode & 0o777).toBe(0o600)
  })

  it('ships a CommonJS preload and a strict CSP', () => {
    const preload = readFileSync(join(ROOT, 'out', 'preload', 'index.cjs'), 'utf8')
    expect(preload).toContain('require("electron")')
    expect(preload).not.toMatch(/\bimport\s/)
    const html = readFileSync(join(ROOT, 'out', 'renderer', 'index.html'), 'utf8')
    const csp = /Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? ''
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain('unsafe-eval')
  })

  it('electronegativity reports no high-severity finding', async () => {
    // One scan over a staged copy of the shell, preload, renderer page and built main bundle.
    const stage = tempDir()
    cpSync(join(ROOT, 'src-main', 'electron'), join(stage, 'electron'), { recursive: true })
    cpSync(join(ROOT, 'src-preload'), join(stage, 'preload'), { recursive: true })
    cpSync(join(ROOT, 'out', 'main', 'main.js'), join(stage, 'built-main.js'))
    cpSync(join(ROOT, 'src-renderer', 'index.html'), join(stage, 'index.html'))
    const out = join(tempDir(), 'report.csv')
    const bin = join(ROOT, 'node_modules', '.bin', 'electronegativity')
    await promisify(execFile)(bin, ['-i', stage, '-e', '45.5.0', '-o', out], { timeout: 90_000 })
    const rows = parseCsv(readFileSync(out, 'utf8')).slice(1)
    expect(rows.length).toBeGreaterThan(0) // the scan ran and reported (medium/low review items)
    const high = rows
      .filter((r) => /^(HIGH|CRITICAL)$/i.test(r[1] ?? ''))
      .map((r) => `${r[0]} ${r[3]}:${r[4]}`)
    expect(high).toEqual([])
  }, 120_000)
})
