// Runs the memdir CLI (argv: bin args…), or nothing (argv: -), and reports the peak RSS on exit.
import { pathToFileURL } from 'node:url'

process.on('exit', () => process.stderr.write(`\nMAXRSS_KB ${process.resourceUsage().maxRSS}\n`))
const [bin, ...args] = process.argv.slice(2)
if (bin && bin !== '-') {
  process.argv = [process.argv[0], bin, ...args]
  await import(pathToFileURL(bin).href)
}
