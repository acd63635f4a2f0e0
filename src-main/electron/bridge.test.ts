import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runInNewContext } from 'node:vm'
import { describe, expect, it, vi } from 'vitest'
import { fromRawClient, type RawClient } from '../../src-shared/api.js'
import { METHODS } from '../../src-shared/contract.js'
import { RpcFailure } from '../../src-shared/errors.js'

// The Electron stub: only what ipc.ts and protocol.ts touch.
vi.mock('electron', () => ({ ipcMain: { handle: vi.fn(), removeHandler: vi.fn() }, net: {}, protocol: {} }))
const { isTrustedSender } = await import('./ipc.js')
const { rendererFileFor } = await import('./protocol.js')

const PRELOAD = fileURLToPath(new URL('../../out/preload/index.cjs', import.meta.url))

/**
 * Runs the built preload in a fresh context with a stub `electron`: what it exposes is what a
 * sandboxed page gets. contextBridge copies values between worlds; custom Error properties do not
 * survive that, so the stub passes results through structuredClone the way the bridge would.
 */
function loadPreload(reply: (method: string, args: unknown) => unknown) {
  const exposed: Record<string, unknown> = {}
  const electron = {
    contextBridge: { exposeInMainWorld: (name: string, api: unknown) => (exposed[name] = api) },
    ipcRenderer: {
      invoke: async (channel: string, method: string, args: unknown) => {
        expect(channel).toBe('memdir:rpc')
        return structuredClone(reply(method, args))
      },
      on: () => {},
      removeListener: () => {},
    },
  }
  const module = { exports: {} }
  runInNewContext(readFileSync(PRELOAD, 'utf8'), {
    require: (id: string) => (id === 'electron' ? electron : undefined),
    module,
    exports: module.exports,
  })
  return exposed.memdir as RawClient
}

describe('the Electron bridge', () => {
  it('the preload exposes one named function per contract method and no raw invoke', () => {
    const raw = loadPreload(() => ({ ok: true, value: null }))
    const names = Object.keys(raw).filter((k) => k !== 'onEvent')
    expect(names.sort()).toEqual([...METHODS].sort())
    expect(raw).not.toHaveProperty('invoke')
  })

  it('errors cross as values and become RpcFailure in the renderer, details and all', async () => {
    const conflict = {
      ok: false,
      error: {
        code: 'CONFLICT',
        message: 'changed on disk',
        details: { current: 'on disk', currentHash: 'abc' },
      },
    }
    const raw = loadPreload((method) => (method === 'memory/update' ? conflict : { ok: true, value: 42 }))
    const client = fromRawClient(raw)
    expect(await client['workspace/current']()).toBe(42)
    const err = await client['memory/update']({
      relPath: 'a.md',
      input: { name: 'a', description: 'b', type: null, body: '' },
      expectedHash: 'x',
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RpcFailure)
    expect((err as RpcFailure).error).toEqual(conflict.error)
  })

  it('a failing IPC call is an error value too, never an unhandled rejection', async () => {
    const raw = loadPreload(() => {
      throw new Error('channel closed')
    })
    expect(await raw['workspace/current']()).toMatchObject({ ok: false, error: { code: 'TRANSPORT' } })
  })
})

describe('isTrustedSender', () => {
  const mainFrame = { url: 'app://memdir/index.html' }
  const webContents = { mainFrame }
  const win = { webContents } as never

  it('accepts only our own top frame loaded from app://memdir', () => {
    expect(isTrustedSender({ sender: webContents, senderFrame: mainFrame } as never, win)).toBe(true)
  })

  it.each([
    ['another webContents', { sender: { mainFrame }, senderFrame: mainFrame }],
    ['a subframe', { sender: webContents, senderFrame: { url: 'app://memdir/x' } }],
    ['no frame', { sender: webContents, senderFrame: null }],
    [
      'a foreign origin',
      {
        sender: { mainFrame: { url: 'https://evil.example/' } },
        senderFrame: { url: 'https://evil.example/' },
      },
    ],
  ])('refuses %s', (_what, event) => {
    expect(isTrustedSender(event as never, win)).toBe(false)
  })

  it('refuses our frame once it navigated elsewhere', () => {
    const frame = { url: 'https://evil.example/' }
    expect(
      isTrustedSender(
        { sender: { mainFrame: frame }, senderFrame: frame } as never,
        { webContents: { mainFrame: frame } } as never,
      ),
    ).toBe(false)
  })
})

describe('the app:// protocol', () => {
  const dir = '/opt/memdir/renderer'
  it.each([
    ['app://memdir/index.html', join(dir, 'index.html')],
    ['app://memdir/', join(dir, 'index.html')],
    ['app://memdir/assets/a.js', join(dir, 'assets', 'a.js')],
    ['app://memdir/%E0%A4%A', undefined],
    // Decoded and normalised, `..` cannot climb out: this names a (missing) file inside the dir.
    ['app://memdir/..%2f..%2fetc%2fpasswd', join(dir, 'etc', 'passwd')],
    ['app://memdir/%00', undefined],
    ['app://other/index.html', undefined],
    ['not a url', undefined],
  ])('%s → %s', (url, file) => {
    expect(rendererFileFor(dir, url)).toBe(file)
  })
})
