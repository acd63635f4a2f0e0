import { runMain } from './main.js'

await runMain(process.argv.slice(2))
