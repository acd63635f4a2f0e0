// Runs one scan approach `times` times after a warm-up; bench/scan.ts counts its syscalls under strace.
import { scanApproaches } from './scan.js'

const [approach = 'scan', dir = '.', times = '1'] = process.argv.slice(2)
const fn = scanApproaches[approach]
if (!fn) throw new Error(`unknown approach ${approach}`)
await fn(dir)
for (let i = 0; i < Number(times); i++) await fn(dir)
