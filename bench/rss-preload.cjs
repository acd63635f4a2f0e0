// Preloaded with --require (bench/lib.ts RSS_PRELOAD): reports the process's peak RSS on exit,
// without changing how the command itself loads.
process.on('exit', () => process.stderr.write(`\nMAXRSS_KB ${process.resourceUsage().maxRSS}\n`))
