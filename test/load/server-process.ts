import { type ChildProcess, spawn } from 'node:child_process'
import { assertCliBuilt, BIN } from '../helpers/built-cli.js'
import { signalAndWait, waitForOutput } from '../helpers/child-process.js'

export interface ServerProcessOptions {
  /** PostgreSQL; without it the instance uses SQLite at `dataFile`. */
  databaseUrl?: string
  dataFile: string
  env: Record<string, string | undefined>
}

/**
 * One `memdir team-server` process (the built CLI, as an operator runs it), which can be killed
 * without warning and started again on the same port.
 */
export class TeamServerProcess {
  private child?: ChildProcess
  private port = 0
  url = ''

  constructor(private readonly opts: ServerProcessOptions) {}

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null
  }

  async start(): Promise<string> {
    assertCliBuilt()
    const child = spawn(
      process.execPath,
      [BIN, 'team-server', '--port', String(this.port), '--data', this.opts.dataFile],
      {
        env: {
          PATH: process.env.PATH,
          ...this.opts.env,
          ...(this.opts.databaseUrl ? { DATABASE_URL: this.opts.databaseUrl } : {}),
        } as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    this.child = child
    let err = ''
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
    const [, url] = await waitForOutput(child, /team memory server on (http:\/\/\S+)/, 'team-server', {
      why: () => err,
    })
    this.url = url as string
    this.port = Number(new URL(this.url).port)
    return this.url
  }

  /** SIGKILL: in-flight requests and open transactions die with the process. */
  kill(): Promise<void> {
    return this.signal('SIGKILL')
  }

  /** SIGTERM, as an orchestrator stops an instance: in-flight requests finish first. */
  stop(): Promise<void> {
    return this.signal('SIGTERM')
  }

  private async signal(sig: NodeJS.Signals): Promise<void> {
    if (this.child) await signalAndWait(this.child, sig)
  }
}
