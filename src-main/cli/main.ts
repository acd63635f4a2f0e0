import { runCli } from './run.js'

const controller = new AbortController()
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => controller.abort())

const code = await runCli(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
})
process.exitCode = code
