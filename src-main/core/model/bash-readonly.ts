/**
 * The memory agents' Bash: a tiny, exactly-understood subset of shell. A command is one simple
 * command or a pipeline (`|`) of them; words are plain ASCII, 'single-quoted' or "double-quoted"
 * (no `$`, backslash or backtick inside); the only redirection is a trailing `2>/dev/null`.
 * No expansions of any kind (parameters, commands, braces, globs, tildes, `$'…'`), no lists,
 * no comments, no control characters. Each command must be on the allow-list, and every flag on
 * that command's list, spelled out in full (GNU's abbreviated long options are refused rather
 * than guessed). The parsed argv is what runs: the Bash tool spawns it without a shell.
 * Reading files is what Read, Grep and Glob are for; this exists for `ls`, `wc`, `head` and the like.
 */

export interface ParsedCommand {
  argv: string[]
  /** `2>/dev/null` was given. */
  discardStderr: boolean
}

export type ReadOnlyVerdict =
  { readOnly: true; pipeline: ParsedCommand[] } | { readOnly: false; reason: string }

class Refuse extends Error {}

const PLAIN = /[A-Za-z0-9_./:=,+@%-]/

/** Why an unquoted character is refused: each names what bash would do with it. */
function refusal(c: string): string {
  if (c === '$') return 'expansions (`$`) are not allowed'
  if (c === '`') return 'command substitution is not allowed'
  if (c === '{' || c === '}') return 'brace expansion is not allowed'
  if (c === '*' || c === '?' || c === '[' || c === ']') return 'globs are not allowed: use the Glob tool'
  if (c === '~') return 'tilde expansion is not allowed: give the full path'
  if (c === '#') return 'comments are not allowed'
  if (c === '\\') return 'backslash escapes are not allowed: quote the word instead'
  if (c === ';' || c === '&') return 'only one command or a pipeline is allowed (no `;`, `&`, `&&`)'
  if (c === '<' || c === '>') return 'redirections are not allowed (except a trailing 2>/dev/null)'
  if (c === '(' || c === ')') return 'subshells are not allowed'
  if (c === '!' || c === '^') return 'history expansion characters are not allowed'
  if (c.charCodeAt(0) > 0x7e)
    return `the non-ASCII character ${JSON.stringify(c)} is not allowed outside quotes`
  return `the character ${JSON.stringify(c)} is not allowed`
}

function tokenize(command: string): ParsedCommand[] {
  for (const ch of command) {
    const code = ch.codePointAt(0)!
    if ((code < 0x20 && ch !== '\t') || code === 0x7f || (code >= 0x80 && code < 0xa0))
      throw new Refuse('control characters (newlines included) are not allowed')
    if (/[\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(ch))
      throw new Refuse('invisible or direction-changing characters are not allowed')
  }
  const pipeline: ParsedCommand[] = [{ argv: [], discardStderr: false }]
  let word = ''
  let inWord = false
  const current = () => pipeline[pipeline.length - 1]!
  const flush = () => {
    if (inWord) {
      if (current().discardStderr) throw new Refuse('`2>/dev/null` must come last in its command')
      current().argv.push(word)
    }
    word = ''
    inWord = false
  }
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!
    if (c === ' ' || c === '\t') {
      flush()
      continue
    }
    if (c === "'") {
      const end = command.indexOf("'", i + 1)
      if (end < 0) throw new Refuse('an unterminated quote')
      word += command.slice(i + 1, end)
      inWord = true
      i = end
      continue
    }
    if (c === '"') {
      const end = command.indexOf('"', i + 1)
      if (end < 0) throw new Refuse('an unterminated quote')
      const inner = command.slice(i + 1, end)
      if (/[$`\\!]/.test(inner))
        throw new Refuse('`$`, backticks, `\\` and `!` are not allowed in double quotes')
      word += inner
      inWord = true
      i = end
      continue
    }
    if (c === '|') {
      if (command[i + 1] === '|' || command[i + 1] === '&') throw new Refuse(refusal('&'))
      flush()
      if (!current().argv.length) throw new Refuse('a pipe needs a command on each side')
      pipeline.push({ argv: [], discardStderr: false })
      continue
    }
    if (c === '>' && word === '2' && inWord && command.startsWith('2>/dev/null', i - 1)) {
      const after = command[i + '>/dev/null'.length]
      if (after !== undefined && after !== ' ' && after !== '\t' && after !== '|')
        throw new Refuse(refusal('>'))
      word = ''
      inWord = false
      current().discardStderr = true
      i += '>/dev/null'.length - 1
      continue
    }
    if (!PLAIN.test(c)) throw new Refuse(refusal(c))
    word += c
    inWord = true
  }
  flush()
  if (pipeline.some((p) => !p.argv.length))
    throw new Refuse(pipeline.length > 1 ? 'a pipe needs a command on each side' : 'the command is empty')
  return pipeline
}

interface FlagSpec {
  /** Short flags without a value, e.g. `la`. */
  short?: string
  /** Short flags that take a value (attached or the next word). */
  shortValue?: string
  long?: string[]
  /** Long flags that take a value (`--x=V` or `--x V`). */
  longValue?: string[]
  /** Long flags whose value is optional (`--x` or `--x=V`, never `--x V`). */
  longOptional?: string[]
  /** `-5` for head/tail. */
  numericShort?: boolean
  /** Positional arguments; default any number. */
  positional?: (arg: string) => string | undefined
}

/** Checks argv[1..] against a flag spec; returns why it is refused, if it is. */
function checkFlags(name: string, args: string[], spec: FlagSpec): string | undefined {
  let optionsDone = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (optionsDone || a === '-' || !a.startsWith('-')) {
      const why = spec.positional?.(a)
      if (why) return why
      continue
    }
    if (a === '--') {
      optionsDone = true
      continue
    }
    if (a.startsWith('--')) {
      const [opt, ...rest] = a.split('=')
      const hasValue = rest.length > 0
      if (spec.longValue?.includes(opt!)) {
        if (!hasValue && ++i >= args.length) return `\`${opt}\` needs a value`
        continue
      }
      if (spec.long?.includes(opt!) && !hasValue) continue
      if (spec.longOptional?.includes(opt!)) continue
      const all = [...(spec.long ?? []), ...(spec.longValue ?? []), ...(spec.longOptional ?? [])]
      const prefixOf = all.find((l) => l.startsWith(opt!))
      return prefixOf
        ? `\`${a}\` is an abbreviation: write the option in full (\`${prefixOf}\`) — GNU tools expand abbreviations, so they are refused`
        : `\`${name} ${opt}\` is not an allowed option`
    }
    if (spec.numericShort && /^-\d+$/.test(a)) continue
    for (let k = 1; k < a.length; k++) {
      const f = a[k]!
      if (spec.shortValue?.includes(f)) {
        if (k === a.length - 1 && ++i >= args.length) return `\`-${f}\` needs a value`
        break // the rest of the word is the value
      }
      if (!spec.short?.includes(f)) return `\`${name} -${f}\` is not an allowed option`
    }
  }
  return undefined
}

const noPositional = (a: string) => `\`${a}\`: this command takes no arguments here`

const SPECS: Record<string, FlagSpec> = {
  ls: {
    short: 'aAlhtrRS1dFisGpn',
    long: ['--all', '--almost-all', '--human-readable', '--recursive', '--reverse', '--directory', '--classify', '--inode', '--size', '--group-directories-first', '--numeric-uid-gid'],
    longValue: ['--sort', '--time-style'],
    longOptional: ['--color'],
  },
  cat: { short: 'nbAEeTtsv', long: ['--number', '--number-nonblank', '--show-all', '--squeeze-blank'] },
  head: { short: 'qv', shortValue: 'nc', numericShort: true, long: ['--quiet', '--silent', '--verbose'], longValue: ['--lines', '--bytes'] },
  tail: { short: 'qv', shortValue: 'nc', numericShort: true, long: ['--quiet', '--silent', '--verbose'], longValue: ['--lines', '--bytes'] },
  wc: { short: 'lwcmL', long: ['--lines', '--words', '--bytes', '--chars', '--max-line-length'] },
  stat: { short: 'Lt', shortValue: 'c', long: ['--dereference', '--terse'], longValue: ['--format', '--printf'] },
  du: { short: 'shacbkmL', shortValue: 'd', long: ['--summarize', '--human-readable', '--all', '--total', '--apparent-size', '--dereference'], longValue: ['--max-depth'] },
  pwd: { short: 'LP', positional: noPositional },
  basename: { short: 'az', shortValue: 's', long: ['--multiple', '--zero'], longValue: ['--suffix'] },
  dirname: { short: 'z', long: ['--zero'] },
  realpath: { short: 'emqsLPz', long: ['--canonicalize-existing', '--canonicalize-missing', '--quiet', '--strip', '--no-symlinks', '--logical', '--physical', '--zero'], longValue: ['--relative-to', '--relative-base'] },
  file: { short: 'bLiz', long: ['--brief', '--dereference', '--mime', '--mime-type', '--uncompress'] },
  echo: { short: 'neE' },
  grep: {
    short: 'rRinlLcvwxEFPsHhoqzZaIU',
    shortValue: 'mABCef',
    long: ['--recursive', '--dereference-recursive', '--ignore-case', '--line-number', '--files-with-matches', '--files-without-match', '--count', '--invert-match', '--word-regexp', '--line-regexp', '--extended-regexp', '--fixed-strings', '--perl-regexp', '--basic-regexp', '--no-messages', '--with-filename', '--no-filename', '--only-matching', '--quiet', '--silent', '--text', '--null', '--null-data'],
    longValue: ['--include', '--exclude', '--exclude-dir', '--max-count', '--context', '--after-context', '--before-context', '--regexp', '--file', '--label'],
    longOptional: ['--color', '--colour'],
  },
  date: {
    short: 'uR',
    shortValue: 'd',
    long: ['--utc', '--universal', '--rfc-2822'],
    longValue: ['--date'],
    longOptional: ['--iso-8601'],
    // A positional that is not +FORMAT sets the clock.
    positional: (a) => (a.startsWith('+') ? undefined : `\`date ${a}\` would set the clock; only +FORMAT is allowed`),
  },
} // prettier-ignore
SPECS.egrep = SPECS.grep!
SPECS.fgrep = SPECS.grep!

/** find: start points, then an expression built only from these tests and operators. */
const FIND_UNARY = new Set(['-name', '-iname', '-path', '-ipath', '-type', '-newer', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-size', '-user', '-group', '-perm', '-maxdepth', '-mindepth', '-printf', '-regex', '-iregex', '-links', '-inum', '-samefile', '-wholename', '-iwholename']) // prettier-ignore
const FIND_NULLARY = new Set(['-empty', '-print', '-print0', '-ls', '-prune', '-quit', '-true', '-false', '-readable', '-writable', '-executable', '-follow', '-depth', '-xdev', '-mount', '-noleaf', '-not', '!', '-a', '-and', '-o', '-or', '(', ')']) // prettier-ignore

function checkFind(args: string[]): string | undefined {
  let i = 0
  while (i < args.length && ['-L', '-P', '-H'].includes(args[i]!)) i++
  while (i < args.length && !args[i]!.startsWith('-') && !['(', ')', '!'].includes(args[i]!)) i++
  for (; i < args.length; i++) {
    const a = args[i]!
    if (FIND_NULLARY.has(a)) continue
    if (FIND_UNARY.has(a)) {
      if (++i >= args.length) return `\`find ${a}\` needs a value`
      continue
    }
    return `\`find ${a}\` is not allowed (only tests like -name/-type/-newer and -print: no -exec, -delete or -fprint)`
  }
  return undefined
}

function checkCommand(argv: string[]): string | undefined {
  const [name, ...args] = argv as [string, ...string[]]
  if (name.includes('/')) return `\`${name}\`: run commands by name, not by path`
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(name)) return 'environment assignments are not allowed'
  if (name === 'find') return checkFind(args)
  const spec = SPECS[name]
  if (!spec) {
    return `\`${name}\` is not one of the read-only commands (${[...Object.keys(SPECS), 'find'].sort().join(', ')}); use Read, Grep or Glob to read files`
  }
  return checkFlags(name, args, spec)
}

/** Whether `command` is in the safe subset and only reads; with the pipeline to run when it is. */
export function checkReadOnlyCommand(command: string): ReadOnlyVerdict {
  let pipeline: ParsedCommand[]
  try {
    pipeline = tokenize(command)
  } catch (e) {
    if (e instanceof Refuse) return { readOnly: false, reason: e.message }
    throw e
  }
  for (const c of pipeline) {
    const why = checkCommand(c.argv)
    if (why) return { readOnly: false, reason: why }
  }
  return { readOnly: true, pipeline }
}

/** The commands the subset allows, for the agents' prompts and the docs. */
export const READ_ONLY_COMMANDS = [...Object.keys(SPECS), 'find'].sort()

/** How the agents' prompts describe Bash. */
export const READ_ONLY_BASH_HINT = `Bash only for one read-only command or a pipeline of them (${READ_ONLY_COMMANDS.join(', ')}; plain or quoted words, no $, globs, redirection or ;)`
