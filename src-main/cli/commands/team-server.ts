import { createTeamServer, listen } from '../../../src-server/http-server.js'
import { defaultDataFile, openTeamStore } from '../../../src-server/open-store.js'
import { type CliIO, UsageError } from '../io.js'

export interface TeamServerArgs {
  sub: string[]
  port?: string
  host?: string
  data?: string
  repo?: string
}

/** `memdir team-server [--port P] [--data FILE]` and `memdir team-server token add --repo owner/repo`. */
export async function teamServerCommand(
  io: CliIO,
  args: TeamServerArgs,
  signal: AbortSignal,
): Promise<number> {
  const dataFile = args.data ?? defaultDataFile(io.env)
  const { store, kind } = await openTeamStore({ databaseUrl: io.env.DATABASE_URL, dataFile })
  try {
    if (args.sub[0] === 'token') {
      if (args.sub[1] !== 'add') throw new UsageError('usage: memdir team-server token add --repo owner/repo')
      if (!args.repo || !/^[\w.-]+\/[\w.-]+$/.test(args.repo))
        throw new UsageError('--repo owner/repo is required')
      io.stdout((await store.addToken([args.repo])) + '\n')
      return 0
    }
    if (args.sub.length) throw new UsageError(`unknown team-server command: ${args.sub.join(' ')}`)
    const port = args.port === undefined ? 8787 : Number(args.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError('--port must be a port number')
    const server = createTeamServer({ store })
    const url = await listen(server, port, args.host ?? '127.0.0.1')
    io.stdout(`team memory server on ${url} (${kind})\n`)
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve()
      signal.addEventListener('abort', () => resolve(), { once: true })
    })
    server.closeAllConnections()
    await new Promise<void>((r) => server.close(() => r()))
    return 0
  } finally {
    await store.close()
  }
}
