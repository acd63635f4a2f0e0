import { runCli } from './run.js'
import { blockingWriter, endNow, readStdin } from './std-streams.js'

/** Read-only commands that await all their work: they end as soon as it is printed (endNow). */
const ONE_SHOT = new Set(['path', 'prompt', 'list', 'index', 'recall'])

/**
 * Runs one command with this process's streams, and sets its exit code. `stdin`: standard input
 * a caller has read already (the prompt hook's fast path, handing over); default: read it here.
 */
export async function runMain(argv: string[], stdin: () => Promise<string> = readStdin): Promise<void> {
  const controller = new AbortController()
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => controller.abort())
  const code = await runCli(argv, {
    stdout: blockingWriter(1, () => process.stdout),
    stderr: blockingWriter(2, () => process.stderr),
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    stdin,
  })
  process.exitCode = code
  if (ONE_SHOT.has(argv[0] ?? '')) return endNow(code)
  // A detached background extraction exits once its work is done (or given up): nothing it leaves
  // open — a model connection kept alive, a lock being released — may keep it running.
  if (argv[0] === 'hook' && argv[1] === 'extract') process.exit(code)
}
