import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-env.js'
import { checkReadOnlyCommand } from './bash-readonly.js'
import { bashTool } from './tools/bash.js'

/** Commands the subset allows: every one is also run in a sandbox below and must change nothing. */
const APPROVED = [
  'ls',
  'ls -la',
  'ls -la sub',
  'ls --all --human-readable',
  'ls --color=never -1',
  'cat MEMORY.md',
  'cat -n a.md b.md',
  'cat -- -dash.md',
  'head -n 5 a.md',
  'head -5 a.md',
  'head --lines=3 a.md',
  'head -n5 a.md',
  'tail -n 2 a.md',
  'tail --bytes 10 a.md',
  'wc -l a.md b.md',
  'wc -l a.md | cat',
  'stat -c %s a.md',
  'stat --format=%n a.md',
  'du -sh .',
  'du --max-depth=1 .',
  'pwd',
  'basename /x/y.md',
  'dirname /x/y.md',
  'realpath a.md',
  'file a.md',
  'echo hello',
  "echo 'a > b; touch x'",
  'echo "quoted; touch x"',
  'grep -rn "real DB" .',
  "grep -c 'alpha' a.md",
  'grep -ri deploy . | head -20',
  "grep -r --include='*.md' deploy .",
  "grep -e '-x' a.md",
  'grep -l alpha a.md b.md | wc -l',
  "find . -name '*.md'",
  'find . -type f -newer MEMORY.md',
  "find . -maxdepth 1 -name '*.md' -print",
  "find . '(' -name a.md -o -name b.md ')' -print0",
  "find sub -type f -printf '%p %s'",
  'date',
  'date +%Y-%m-%d',
  'date -u --iso-8601=seconds',
  'ls 2>/dev/null',
  'cat missing.md 2>/dev/null',
  'ls | wc -l',
  "grep -h 'é' a.md",
]

/** [command, what the refusal must say]. Each would write, run something, or is not plainly read-only. */
const HOSTILE: [string, string][] = [
  // Found in review: approved by the old gate, and shown below to write or execute under bash.
  ["sed --expression='1w x' f", '`sed`'],
  ["sed -n '$!e touch x' f", '`sed`'],
  ["sed -n '/a/Iw x' f", '`sed`'],
  ['sed --in s/a/b/ f', '`sed`'],
  ['sort --out=x f', '`sort`'],
  ['sort -S 1 --compress-program=bash cmds.txt', '`sort`'],
  ['sort {--output=x,f}', 'brace'],
  ['find . -{delete,true}', 'brace'],
  ['ls #\ntouch x', 'control characters'],
  ["echo $'\\'' ;touch x #'", 'expansions'],
  ["echo $'\\\\' ';touch x #'", 'expansions'],
  // Command and process substitution, parameter and arithmetic expansion.
  ['$(touch x)', 'expansions'],
  ['echo $(touch x)', 'expansions'],
  ['echo `touch x`', 'command substitution'],
  ['echo "$(touch x)"', 'double quotes'],
  ['echo "`touch x`"', 'double quotes'],
  ['ls $(echo /)', 'expansions'],
  ['cat <(touch x)', 'redirections'],
  ['ls >(touch x)', 'redirections'],
  ['echo ${PATH}', 'expansions'],
  ['echo $HOME', 'expansions'],
  ['echo $((1+1))', 'expansions'],
  ['echo ${x:=y}', 'expansions'],
  ['echo $"x"', 'expansions'],
  ["echo $'\\x3btouch x'", 'expansions'],
  // Redirections and here-documents.
  ['echo x > x', 'redirections'],
  ['echo x >> x', 'redirections'],
  ['ls >| x', 'redirections'],
  ['ls &> x', 'one command'],
  ['ls 2> x', 'redirections'],
  ['ls 2>x', 'redirections'],
  ['ls 1>x', 'redirections'],
  ['ls >&x', 'redirections'],
  ['cat < a.md > x', 'redirections'],
  ['ls 2>/dev/null > x', 'redirections'],
  ['ls 2>/dev/nullx', 'redirections'],
  ['ls 2>/dev/null -la', 'must come last'],
  ['cat <<EOF\nx\nEOF', 'control characters'],
  ['cat <<< x', 'redirections'],
  ['cat <<EOF > x', 'redirections'],
  // Lists, background jobs, subshells, groups.
  ['ls; touch x', 'one command'],
  ['ls;touch x', 'one command'],
  ['ls && touch x', 'one command'],
  ['ls || touch x', 'one command'],
  ['ls & touch x', 'one command'],
  ['ls |& cat', 'one command'],
  ['(touch x)', 'subshells'],
  ['{ touch x; }', 'brace'],
  ['ls\ntouch x', 'control characters'],
  ['ls\rtouch x', 'control characters'],
  ['ls | ', 'each side'],
  ['| ls', 'each side'],
  ['', 'empty'],
  // Comments and escapes.
  ['ls # x', 'comments'],
  ['ls \\; touch x', 'backslash'],
  ['l\\s', 'backslash'],
  ['echo "a\\"; touch x"', 'double quotes'],
  ["echo 'unterminated", 'unterminated'],
  // Globs, tilde.
  ['cat *', 'globs'],
  ['ls ?', 'globs'],
  ['cat [a]', 'globs'],
  ['ls ~', 'tilde'],
  ['ls ~root', 'tilde'],
  ['cat {a,b}.md', 'brace'],
  // Commands that write, run others, or are not on the list.
  ['touch x', '`touch`'],
  ['rm -rf x', '`rm`'],
  ['mv a.md b.md', '`mv`'],
  ['cp a.md x', '`cp`'],
  ['tee x', '`tee`'],
  ['dd if=a.md of=x', '`dd`'],
  ['ln -s a.md x', '`ln`'],
  ['mkdir x', '`mkdir`'],
  ['chmod 777 a.md', '`chmod`'],
  ['truncate -s 0 a.md', '`truncate`'],
  ['install a.md x', '`install`'],
  ['xargs touch', '`xargs`'],
  ['env touch x', '`env`'],
  ['env -i ls', '`env`'],
  ['nohup touch x', '`nohup`'],
  ['timeout 1 touch x', '`timeout`'],
  ['nice touch x', '`nice`'],
  ['command touch x', '`command`'],
  ['builtin echo x', '`builtin`'],
  ['exec touch x', '`exec`'],
  ["eval 'touch x'", '`eval`'],
  ['source x', '`source`'],
  ['. x', '`.`'],
  ["bash -c 'touch x'", '`bash`'],
  ['sh -c x', '`sh`'],
  ["python3 -c 'open(1)'", '`python3`'],
  ["node -e 'x'", '`node`'],
  ["perl -e 'x'", '`perl`'],
  ["awk 'BEGIN{system(1)}'", '`awk`'],
  ['awk -f prog.awk a.md', '`awk`'],
  ["git -c core.pager='touch x' log", '`git`'],
  ['git status', '`git`'],
  ['less a.md', '`less`'],
  ['more a.md', '`more`'],
  ['man ls', '`man`'],
  ['vi a.md', '`vi`'],
  ['sed -n p a.md', '`sed`'],
  ['sort a.md', '`sort`'],
  ['uniq a.md x', '`uniq`'],
  ['tar cf x.tar a.md', '`tar`'],
  ['curl -o x http://127.0.0.1/', '`curl`'],
  ['wget http://127.0.0.1/', '`wget`'],
  ['/bin/ls', 'by name'],
  ['./x', 'by name'],
  ['../bin/ls', 'by name'],
  ['FOO=1 ls', 'environment'],
  ['LD_PRELOAD=x.so ls', 'environment'],
  ['PATH=. ls', 'environment'],
  // Flags of allowed commands that write, run, follow or set something.
  ['find . -exec touch x +', '-exec'],
  ['find . -execdir touch x +', '-execdir'],
  ['find . -ok touch x +', '-ok'],
  ['find . -delete', '-delete'],
  ['find . -name a.md -o -delete', '-delete'],
  ['find . -fprint x', '-fprint'],
  ['find . -fprintf x %p', '-fprintf'],
  ['find . -fls x', '-fls'],
  ['find . -fprint0 x', '-fprint0'],
  ['find -D exec .', '-D'],
  ['date -s 2020-01-01', '-s'],
  ['date --set=2020-01-01', '--set'],
  ['date --se=2020-01-01', 'not an allowed option'],
  ['date 010100002020', 'set the clock'],
  ['tail -f a.md', '-f'],
  ['tail --follow a.md', '--follow'],
  ['du --files0-from=list', '--files0-from'],
  ['wc --files0-from=list', '--files0-from'],
  ['file -C -m x', '-C'],
  ['ls --recur', 'abbreviation'],
  ['head --li=1 a.md', 'abbreviation'],
  ['grep --inc=x deploy .', 'abbreviation'],
  ['pwd x', 'no arguments'],
  ['cat a.md | tee x', '`tee`'],
  ['ls | xargs touch', '`xargs`'],
  ['cat a.md | sh', '`sh`'],
  ['echo touch x | bash', '`bash`'],
  ['ls | dd of=x', '`dd`'],
  // Unicode look-alikes and invisible characters.
  ['ls\uff1btouch x', 'non-ASCII'],
  ['ls \uff5c touch x', 'non-ASCII'],
  ['ls\u00a0-la', 'non-ASCII'],
  ['ls\u3000-la', 'non-ASCII'],
  ['\uff4c\uff53', 'non-ASCII'],
  ['\u0456s', 'non-ASCII'],
  ['ls\u2028touch x', 'invisible'],
  ['ls \u202e x', 'invisible'],
  ['ls\u200b', 'invisible'],
  ['ls\u0000touch', 'control characters'],
  ['ls\u000btouch', 'control characters'],
  ['ls\u001b[2J', 'control characters'],
  ['ls\u0085touch', 'control characters'],
]

/** Every file under `dir` with its content and mode (atime excluded: reads may touch it). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const p = join(dir, rel)
    const st = lstatSync(p)
    out[rel] = `${st.mode} ${st.mtimeMs} ${st.isFile() ? readFileSync(p, 'utf8') : ''}`
  }
  return out
}

function sandbox(): string {
  const dir = tempDir('memdir-bash-')
  writeFileSync(join(dir, 'MEMORY.md'), '- [A](a.md) — alpha\n')
  writeFileSync(join(dir, 'a.md'), 'alpha line\nreal DB only\ndeploy on tuesday\nécole\n')
  writeFileSync(join(dir, 'b.md'), 'beta -x line\n')
  writeFileSync(join(dir, '-dash.md'), 'dash\n')
  writeFileSync(join(dir, 'f'), 'a line\nb line\n')
  writeFileSync(join(dir, 'cmds.txt'), 'touch x\n'.repeat(2000))
  execFileSync('mkdir', ['-p', join(dir, 'sub')])
  writeFileSync(join(dir, 'sub', 'c.md'), 'gamma\n')
  return dir
}

describe('the read-only Bash subset', () => {
  it(`has a table of ${HOSTILE.length} hostile commands and ${APPROVED.length} approved ones`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(120)
  })

  it.each(HOSTILE)('refuses %j', (cmd, reason) => {
    const v = checkReadOnlyCommand(cmd)
    expect(v.readOnly).toBe(false)
    if (!v.readOnly) expect(v.reason).toContain(reason)
  })

  it.each(APPROVED)('allows %j', (cmd) => {
    expect(checkReadOnlyCommand(cmd)).toMatchObject({ readOnly: true })
  })

  it('the commands found in review really write or execute when bash runs them (in a sandbox)', () => {
    for (const [cmd] of HOSTILE.slice(0, 10)) {
      const dir = sandbox()
      const before = snapshot(dir)
      try {
        execFileSync('bash', ['-c', cmd], { cwd: dir, stdio: 'ignore', env: { PATH: '/usr/bin:/bin' } })
      } catch {
        // exit status does not matter: the effect does
      }
      expect(
        existsSync(join(dir, 'x')) || JSON.stringify(snapshot(dir)) !== JSON.stringify(before),
        cmd,
      ).toBe(true)
    }
  })

  it('every approved command, run by the Bash tool in a sandbox, changes nothing', async () => {
    const dir = sandbox()
    const before = snapshot(dir)
    const outside = tempDir('memdir-bash-outside-')
    for (const cmd of APPROVED) {
      const r = await bashTool.run({ command: cmd }, { cwd: dir })
      expect(r.content, cmd).not.toMatch(/^Refused/)
    }
    expect(snapshot(dir)).toEqual(before)
    expect(readdirSync(outside)).toEqual([])
    expect(relative(dir, dir)).toBe('')
  })

  it('runs the parsed argv without a shell: quotes are data, pipes connect', async () => {
    const dir = sandbox()
    const r1 = await bashTool.run({ command: "echo 'a > b; touch x'" }, { cwd: dir })
    expect(r1.content).toBe('a > b; touch x\n')
    const r2 = await bashTool.run({ command: 'grep -c line f | cat' }, { cwd: dir })
    expect(r2.content.trim()).toBe('2')
    const r3 = await bashTool.run({ command: 'cat missing.md 2>/dev/null' }, { cwd: dir })
    expect(r3).toMatchObject({ isError: true, content: '(no output, exit code 1)' })
    const r4 = await bashTool.run({ command: 'touch x' }, { cwd: dir })
    expect(r4).toMatchObject({ isError: true, content: expect.stringContaining('Refused') })
    expect(existsSync(join(dir, 'x'))).toBe(false)
  })
})
