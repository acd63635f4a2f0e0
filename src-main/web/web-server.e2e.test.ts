import { request } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sandbox, tempDir, writeFile } from '../../test/helpers/temp-env.js'
import { clearAutoMemPathCache } from '../core/paths/auto-mem-path.js'
import { createHost, type Host } from '../host/app/host.js'
import { startWebServer, type RunningWebServer } from './web-server.js'

let host: Host
let web: RunningWebServer
let port: number

beforeEach(async () => {
  clearAutoMemPathCache()
  const sb = sandbox()
  sb.env.MEMDIR_DATA_DIR = join(sb.root, 'data')
  const renderer = tempDir()
  writeFile(join(renderer, 'index.html'), '<!doctype html><title>Memdir</title>')
  host = await createHost({ env: sb.env, projectRoot: sb.project })
  web = await startWebServer({ host, rendererDir: renderer })
  port = Number(new URL(web.url).port)
})
afterEach(async () => {
  await web.close()
  await host.close()
})

/** One raw HTTP/1.1 exchange, so nothing in a client library tidies the request up. */
function raw(text: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => s.write(text))
    let out = ''
    s.on('data', (d) => (out += d))
    s.on('end', () => resolve(out))
    s.on('error', () => resolve(out))
    s.setTimeout(3000, () => {
      s.destroy()
      resolve(out)
    })
  })
}

function call(opts: { path?: string; method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: opts.path ?? '/rpc',
        method: opts.method ?? 'POST',
        headers: { host: `127.0.0.1:${port}`, 'x-memdir-token': web.token, ...opts.headers },
      },
      (res) => {
        let body = ''
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}

const alive = async () => (await call({ path: '/', method: 'GET' })).status === 200

describe('memdir web under malformed input', () => {
  it('answers the two requests that used to kill it', async () => {
    expect((await call({ path: '/%E0%A4%A', method: 'GET', headers: { 'x-memdir-token': '' } })).status).toBe(
      404,
    )
    expect(await alive()).toBe(true)
    const nul = await call({ body: 'null' })
    expect(nul.status).toBe(400)
    expect(JSON.parse(nul.body)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } })
    expect(await alive()).toBe(true)
  })

  it('survives a fuzz of paths, headers and bodies, answering each with a status', async () => {
    const paths = [
      '/%',
      '/%%',
      '/%E0%A4%A',
      '/%00',
      '/..%2f..%2fetc%2fpasswd',
      '/' + 'a'.repeat(8000),
      '/%ff%fe',
      '/?%',
      '//x',
      '/index.html%00.png',
    ]
    for (const path of paths) {
      const r = await call({ path, method: 'GET' })
      expect([200, 400, 404, 431]).toContain(r.status)
    }
    const bodies = [
      '',
      'null',
      '[]',
      '"x"',
      '1',
      '{',
      '{"method":1}',
      '{"method":"memory/read","args":null}',
      '{"method":"memory/read","args":{"relPath":{"$gt":""}}}',
      '{"method":"__proto__"}',
      '{"method":"constructor","args":{}}',
      '['.repeat(5000) + ']'.repeat(5000),
      '{"method":"settings/set","args":{"__proto__":{"x":1}}}',
      '\u0000\u0001',
    ]
    for (const body of bodies) {
      const r = await call({ body })
      expect([200, 400]).toContain(r.status)
      const parsed = JSON.parse(r.body) as { ok: boolean }
      if (r.status === 400) expect(parsed.ok).toBe(false)
    }
    expect((await call({ body: 'x'.repeat(3 * 1024 * 1024) })).status).toBe(413)
    const rawRequests = [
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
      'BLAH\r\n\r\n',
      'GET /%E0 HTTP/1.1\r\n\r\n',
      `POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\nContent-Length: 5\r\n\r\nnull`,
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: ' + 'y'.repeat(20000) + '\r\n\r\n',
    ]
    for (const r of rawRequests) expect(await raw(r)).toMatch(/^HTTP\/1\.1 [45]\d\d/)
    expect(await alive()).toBe(true)
  })

  it('checks the Host header: a DNS-rebinding page gets 421', async () => {
    expect((await call({ path: '/', method: 'GET', headers: { host: 'evil.example:80' } })).status).toBe(421)
    expect(
      (await call({ body: '{"method":"workspace/current"}', headers: { host: `attacker.test:${port}` } }))
        .status,
    ).toBe(421)
    expect((await call({ path: '/', method: 'GET', headers: { host: `localhost:${port}` } })).status).toBe(
      200,
    )
  })

  it('refuses a wrong token without running anything', async () => {
    const r = await call({ body: '{"method":"workspace/current"}', headers: { 'x-memdir-token': 'nope' } })
    expect(r.status).toBe(401)
  })
})
