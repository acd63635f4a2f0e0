import childProcess from 'node:child_process'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'
import { basename } from 'node:path'
import { promisify } from 'node:util'

/**
 * The unit tier runs with no browser, no socket and no child server: a test that listens, connects,
 * forks, or starts Node, npm or a browser belongs to the e2e tier. Short-lived tools a behaviour is
 * defined against (git for staleness, the Bash tool's commands) still run. Each refused entry point
 * fails loudly, saying where the test should go.
 */
const refusal = (what: string) =>
  new Error(
    `unit tier: this test ${what}. Tests that cross a process or socket boundary are e2e tests: name the file *.e2e.test.ts.`,
  )

net.Server.prototype.listen = function () {
  throw refusal('listens on a socket')
} as typeof net.Server.prototype.listen
net.Socket.prototype.connect = function () {
  throw refusal('connects to a socket')
} as typeof net.Socket.prototype.connect

const SERVERS = /^(node|nodejs|npm|npx|bun|chromium|chrome|electron|memdir)(\.exe)?$/i
const startsServer = (command: string) =>
  command === process.execPath || SERVERS.test(basename(command.split(/\s+/)[0] ?? ''))

type Fn = ((...args: unknown[]) => unknown) & { [promisify.custom]?: (...args: unknown[]) => unknown }
const cp = childProcess as unknown as Record<string, Fn>
for (const name of ['spawn', 'fork', 'exec', 'execFile', 'spawnSync', 'execSync', 'execFileSync']) {
  const real = cp[name]!
  const check = (args: unknown[]) => {
    const command = String(args[0] ?? '')
    if (name === 'fork' || startsServer(command))
      throw refusal(`starts a process (${name} ${command.slice(0, 60)})`)
  }
  const guarded: Fn = function (this: unknown, ...args: unknown[]) {
    check(args)
    return real.apply(this, args)
  }
  const custom = real[promisify.custom]
  if (custom)
    guarded[promisify.custom] = (...args: unknown[]) => {
      check(args)
      return custom(...args)
    }
  cp[name] = guarded
}
syncBuiltinESMExports()
