import { request } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { sandbox, tempDir, writeFile } from '../../test/helpers/temp-env.js'
import { until } from '../../test/helpers/until.js'
import { clearAutoMemPathCache } from '../core/paths/auto-mem-path.js'
import { createHost, type Host } from '../host/app/host.js'
import { MAX_CALLS_IN_FLIGHT, startWebServer, type RunningWebServer } from './web-server.js'

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

/** The page's socket: calls and events over one connection, as the browser client uses it. */
async function openSocket(token = web.token, origin = `http://127.0.0.1:${port}`) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/events?token=${encodeURIComponent(token)}`, { origin })
  const messages: unknown[] = []
  ws.on('message', (d) => messages.push(JSON.parse(String(d))))
  const opened = await new Promise<boolean>((resolve) => {
    ws.once('open', () => resolve(true))
    ws.once('error', () => resolve(false))
  })
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  const reply = async (id: number) =>
    (
      await until(
        `the reply to ${id}`,
        () => messages.find((x) => (x as { rpc?: number }).rpc === id) as { result: unknown } | undefined,
        2000,
      )
    ).result
  return { ws, opened, closed, messages, reply }
}

describe('calls over the page’s WebSocket', () => {
  it('answers each call by its id, the same as POST /rpc, with events on the same socket', async () => {
    const s = await openSocket()
    expect(s.opened).toBe(true)
    s.ws.send(
      JSON.stringify({
        id: 7,
        method: 'memory/create',
        args: { input: { name: 'A note', description: 'd', type: 'user', body: 'Body.' }, scope: 'private' },
      }),
    )
    s.ws.send(JSON.stringify({ id: 8, method: 'workspace/current' }))
    const created = await s.reply(7)
    expect(created).toMatchObject({ ok: true })
    const overSocket = await s.reply(8)
    const overHttp = JSON.parse((await call({ body: '{"method":"workspace/current"}' })).body) as unknown
    expect(overSocket).toEqual(overHttp)
    const list = (await (async () => {
      s.ws.send(JSON.stringify({ id: 9, method: 'memory/list' }))
      return s.reply(9)
    })()) as { ok: true; value: { relPath: string }[] }
    expect(list.value.map((m) => m.relPath)).toContain(
      (created as { value: { relPath: string } }).value.relPath,
    )
    // The write's event came over the same socket, as an event (no id).
    await expect
      .poll(() => s.messages.some((m) => (m as { type?: string }).type === 'memories/changed'))
      .toBe(true)
    s.ws.close()
  })

  it('answers a bad call with an error and closes on a message it cannot answer; nothing else is run', async () => {
    const s = await openSocket()
    s.ws.send(JSON.stringify({ id: 1, method: 'no/such' }))
    s.ws.send(JSON.stringify({ id: 2, method: 'memory/read', args: { relPath: '../../etc/passwd' } }))
    s.ws.send(JSON.stringify({ id: 3, method: 'memory/read', args: null }))
    s.ws.send(JSON.stringify({ id: 4 }))
    for (const id of [1, 2, 3, 4]) expect(await s.reply(id)).toMatchObject({ ok: false })
    s.ws.send('not json')
    expect(await s.closed).toBe(1008)
    const t = await openSocket()
    t.ws.send(JSON.stringify({ method: 'workspace/current' })) // no id: no way to answer it
    expect(await t.closed).toBe(1008)
    const u = await openSocket()
    u.ws.send('x'.repeat(3 * 1024 * 1024)) // over the size a POST /rpc may have
    expect(await u.closed).toBe(1009)
    expect(await alive()).toBe(true)
  })

  it('holds one socket to a bounded number of unanswered calls; the rest are refused at once, not queued', async () => {
    // A host whose calls wait until released: what a flood of slow calls looks like.
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    let reached = 0
    const slow = await startWebServer({
      host: {
        ...host,
        call: async (method, args) => {
          reached++
          await gate
          return host.call(method, args)
        },
      },
      rendererDir: tempDir(),
    })
    try {
      const url = new URL(slow.url)
      const ws = new WebSocket(`ws://127.0.0.1:${url.port}/events?token=${encodeURIComponent(slow.token)}`, {
        origin: `http://127.0.0.1:${url.port}`,
      })
      const replies = new Map<number, { ok: boolean; error?: { code: string } }>()
      ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as { rpc?: number; result: { ok: boolean; error?: { code: string } } }
        if (m.rpc !== undefined) replies.set(m.rpc, m.result)
      })
      await new Promise((r) => ws.once('open', r))
      const sent = MAX_CALLS_IN_FLIGHT + 36
      for (let id = 1; id <= sent; id++) ws.send(JSON.stringify({ id, method: 'workspace/current' }))
      // Those past the bound are answered while the others still wait, and never reach the host.
      await until('the refusals', () => replies.size === sent - MAX_CALLS_IN_FLIGHT, 5000)
      expect([...replies.values()].every((r) => r.error?.code === 'TOO_MANY_CALLS')).toBe(true)
      expect(reached).toBe(MAX_CALLS_IN_FLIGHT)
      release()
      await until('every answer', () => replies.size === sent, 5000)
      expect([...replies.values()].filter((r) => r.ok)).toHaveLength(MAX_CALLS_IN_FLIGHT)
      // Once answered, the socket takes calls again.
      ws.send(JSON.stringify({ id: sent + 1, method: 'workspace/current' }))
      await until('a later call', () => replies.get(sent + 1)?.ok, 5000)
      ws.close()
    } finally {
      await slow.close()
    }
  })

  it('refuses a socket with a wrong token or from another origin, so no call reaches the host', async () => {
    expect((await openSocket('nope')).opened).toBe(false)
    expect((await openSocket(web.token, 'http://evil.example')).opened).toBe(false)
  })
})
