import { runCli } from './run.js'
import { terminalSafe } from './terminal-text.js'
import { hookWorkingDir, workingDir } from './working-dir.js'
import { blockingWriter, endNow, readStdin } from './std-streams.js'

/** Read-only commands that await all their work: they end as soon as it is printed (endNow). */
const ONE_SHOT = new Set(['path', 'prompt', 'list', 'index', 'recall'])

/**
 * Runs one command with this process's streams, and sets its exit code. `stdin`: standard input
 * a caller has read already (the prompt hook's fast path, handing over); default: read it here.
 */
export async function runMain(argv: string[], stdin: () => Promise<string> = readStdin): Promise<void> {
  const cwd = argv[0] === 'hook' ? hookWorkingDir() : workingDir()
  const givesCwd = argv.some((a) => a === '--cwd' || a.startsWith('--cwd='))
  if (cwd === undefined && !givesCwd) {
    blockingWriter(
      2,
      () => process.stderr,
    )(
      'memdir: the current directory no longer exists (it was deleted or moved): cd to your project, or pass --cwd DIR\n',
    )
    process.exitCode = 1
    return
  }
  const controller = new AbortController()
  // `on`, not `once`: proper-lockfile's signal-exit kills the process again with the signal when
  // it finds itself the only listener, which a `once` listener no longer is by the time it runs:
  // Ctrl-C ended `memdir web` and `watch` at once, without their cleanup (a running extraction cut
  // off, the agent socket left behind). A second signal ends the command without waiting.
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.on(sig, () => {
      if (controller.signal.aborted) process.exit(128 + (sig === 'SIGINT' ? 2 : 15))
      controller.abort()
    })
  const code = await runCli(argv, {
    stdout: terminalSafe(
      1,
      blockingWriter(1, () => process.stdout),
    ),
    stderr: terminalSafe(
      2,
      blockingWriter(2, () => process.stderr),
    ),
    env: process.env,
    // With --cwd given, the folder the command started in is not used.
    cwd: cwd ?? hookWorkingDir(),
    signal: controller.signal,
    stdin,
  })
  process.exitCode = code
  if (ONE_SHOT.has(argv[0] ?? '')) return endNow(code)
  // A detached background extraction exits once its work is done (or given up): nothing it leaves
  // open — a model connection kept alive, a lock being released — may keep it running.
  if (argv[0] === 'hook' && argv[1] === 'extract') process.exit(code)
}
