import { runCli } from './run.js'

/** Standard input up to 4 MiB; a hook's JSON arrives whole and stdin closes. */
function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    process.stdin.on('data', (c: Buffer) => {
      size += c.length
      if (size > 4 * 1024 * 1024) reject(new Error('standard input is larger than 4 MiB'))
      else chunks.push(c)
    })
    process.stdin.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    process.stdin.once('error', reject)
  })
}

const controller = new AbortController()
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => controller.abort())

const code = await runCli(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
  stdin: () => readStdin(),
})
process.exitCode = code
