/**
 * Decides whether a shell command only reads, by lexing it the way bash would split it
 * (quotes, escapes, operators, redirections) and checking every command of every segment.
 * Anything it cannot prove read-only is refused, with the reason the model will see.
 */

export type ReadOnlyVerdict = { readOnly: true } | { readOnly: false; reason: string }

type Token = { kind: 'word'; value: string } | { kind: 'op'; value: string }

class Refuse extends Error {}

const CONTROL_OPS = [
  '&&',
  '||',
  '|&',
  ';;',
  '<<<',
  '<<',
  '>>',
  '>|',
  '>&',
  '&>',
  '<&',
  '|',
  ';',
  '&',
  '<',
  '>',
  '(',
  ')',
  '\n',
]

function lex(command: string): Token[] {
  const tokens: Token[] = []
  let word = ''
  let inWord = false
  const flush = () => {
    if (inWord) tokens.push({ kind: 'word', value: word })
    word = ''
    inWord = false
  }
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string
    const next = command[i + 1]
    if (c === '\\') {
      if (next === undefined) throw new Refuse('a trailing backslash')
      if (next !== '\n') word += next
      inWord = true
      i++
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
      let j = i + 1
      for (; j < command.length && command[j] !== '"'; j++) {
        const d = command[j]
        if (d === '\\') {
          word += command[j + 1] ?? ''
          j++
        } else if (d === '`' || (d === '$' && (command[j + 1] === '(' || command[j + 1] === '{'))) {
          throw new Refuse('command substitution or parameter expansion')
        } else word += d
      }
      if (j >= command.length) throw new Refuse('an unterminated quote')
      inWord = true
      i = j
      continue
    }
    if (c === '`') throw new Refuse('command substitution')
    if (c === '$' && (next === '(' || next === '{'))
      throw new Refuse('command substitution or parameter expansion')
    if ((c === '<' || c === '>') && next === '(') throw new Refuse('process substitution')
    if (c === ' ' || c === '\t') {
      flush()
      continue
    }
    if (c === '#' && !inWord) break // comment to end of line
    const op = CONTROL_OPS.find((o) => command.startsWith(o, i))
    if (op) {
      // `2>file`, `2>&1`: a digits-only word right before a redirection is its file descriptor.
      if ((op.startsWith('>') || op.startsWith('<')) && inWord && /^\d+$/.test(word)) {
        word = ''
        inWord = false
      } else flush()
      tokens.push({ kind: 'op', value: op })
      i += op.length - 1
      continue
    }
    word += c
    inWord = true
  }
  flush()
  return tokens
}

type Check = (args: string[]) => string | undefined

const anyArgs: Check = () => undefined

function refuseFlags(flags: string[], why: string): Check {
  return (args) => {
    const bad = args.find((a) => flags.some((f) => a === f || (f.startsWith('--') && a.startsWith(f + '='))))
    return bad ? `\`${bad}\` ${why}` : undefined
  }
}

function sedCheck(args: string[]): string | undefined {
  for (const a of args) {
    if (a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a))
      return '`sed -i` edits files in place'
  }
  const scripts = args.filter((a) => !a.startsWith('-'))
  // w/W write files, e executes; also the s///w and s///e flags.
  const writes = /(^|[;{}\n]|\d|\/|\$)\s*[wWe](\s|$)|s(.).*?\3.*?\3[gpiImM0-9]*[we]/
  if (scripts.some((s) => writes.test(s))) return 'this sed script writes files or runs commands'
  return undefined
}

function uniqCheck(args: string[]): string | undefined {
  return args.filter((a) => !a.startsWith('-')).length > 1 ? '`uniq IN OUT` writes OUT' : undefined
}

const READ_ONLY: Record<string, Check> = {
  ls: anyArgs,
  cat: anyArgs,
  head: anyArgs,
  tail: anyArgs,
  wc: anyArgs,
  stat: anyArgs,
  file: anyArgs,
  du: anyArgs,
  df: anyArgs,
  pwd: anyArgs,
  echo: anyArgs,
  printf: anyArgs,
  tree: refuseFlags(['-o'], 'writes a file'),
  basename: anyArgs,
  dirname: anyArgs,
  realpath: anyArgs,
  readlink: anyArgs,
  which: anyArgs,
  whoami: anyArgs,
  id: anyArgs,
  uname: anyArgs,
  true: anyArgs,
  false: anyArgs,
  test: anyArgs,
  diff: refuseFlags(['--output'], 'writes a file'),
  cmp: anyArgs,
  comm: anyArgs,
  cut: anyArgs,
  tr: anyArgs,
  nl: anyArgs,
  od: anyArgs,
  strings: anyArgs,
  column: anyArgs,
  fold: anyArgs,
  rev: anyArgs,
  md5sum: anyArgs,
  sha1sum: anyArgs,
  sha256sum: anyArgs,
  jq: anyArgs,
  date: refuseFlags(['-s', '--set'], 'sets the clock'),
  grep: anyArgs,
  egrep: anyArgs,
  fgrep: anyArgs,
  rg: refuseFlags(['--pre'], 'runs a command on each file'),
  find: refuseFlags(
    ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'],
    'runs commands or writes files',
  ),
  sort: (args) =>
    args.some((a) => a === '-o' || a.startsWith('--output') || /^-[a-zA-Z]*o/.test(a))
      ? '`sort -o` writes a file'
      : undefined,
  uniq: uniqCheck,
  sed: sedCheck,
}

function checkSegment(words: string[]): string | undefined {
  if (words.length === 0) return 'an empty command'
  const [cmd, ...args] = words as [string, ...string[]]
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(cmd)) return 'environment assignments before a command are not allowed'
  if (cmd.includes('/')) return `\`${cmd}\`: run commands by name, not by path`
  const check = READ_ONLY[cmd]
  if (!check) return `\`${cmd}\` is not a read-only command`
  return check(args)
}

/** Whether `command` only reads. Output redirection is allowed only to /dev/null or another fd. */
export function checkReadOnlyCommand(command: string): ReadOnlyVerdict {
  let tokens: Token[]
  try {
    tokens = lex(command)
  } catch (e) {
    if (e instanceof Refuse) return { readOnly: false, reason: `the command uses ${e.message}` }
    throw e
  }
  if (!tokens.some((t) => t.kind === 'word')) return { readOnly: false, reason: 'the command is empty' }
  let words: string[] = []
  const segments: string[][] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (t.kind === 'word') {
      words.push(t.value)
      continue
    }
    switch (t.value) {
      case '&&':
      case '||':
      case ';':
      case '|':
      case '|&':
      case '\n':
        segments.push(words)
        words = []
        break
      case '&':
        return { readOnly: false, reason: 'background jobs (`&`) are not allowed' }
      case '(':
      case ')':
        return { readOnly: false, reason: 'subshells are not allowed' }
      case '<<':
      case ';;':
        return { readOnly: false, reason: `\`${t.value}\` is not allowed` }
      case '<':
      case '<<<':
      case '<&': {
        const target = tokens[++i]
        if (!target || target.kind !== 'word')
          return { readOnly: false, reason: 'a redirection without a target' }
        break
      }
      default: {
        // > >> >| &> >&
        const target = tokens[++i]
        if (!target || target.kind !== 'word')
          return { readOnly: false, reason: 'a redirection without a target' }
        const toFd = t.value === '>&' && /^(\d+|-)$/.test(target.value)
        if (!toFd && target.value !== '/dev/null') {
          return {
            readOnly: false,
            reason: `output redirection (\`${t.value} ${target.value}\`) writes a file`,
          }
        }
      }
    }
  }
  segments.push(words)
  for (const seg of segments) {
    if (seg.length === 0) continue
    const why = checkSegment(seg)
    if (why) return { readOnly: false, reason: why }
  }
  if (segments.every((s) => s.length === 0)) return { readOnly: false, reason: 'the command is empty' }
  return { readOnly: true }
}
