export interface CliIO {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: Record<string, string | undefined>
  cwd: string
  /** Aborts long-running commands (watch); main.ts wires it to SIGINT/SIGTERM. */
  signal?: AbortSignal
  /** All of standard input (hooks get their JSON there). */
  stdin?: () => Promise<string>
}

/** Bad invocation: exit code 2 with usage help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export function printJson(io: CliIO, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2) + '\n')
}
