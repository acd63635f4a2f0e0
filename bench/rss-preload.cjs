// Preloaded with --require: reports the process's peak RSS on exit, without changing how the
// command itself loads (bench/rss-child.mjs runs it as an ES module import instead).
process.on('exit', () => process.stderr.write(`\nMAXRSS_KB ${process.resourceUsage().maxRSS}\n`))
