import { describe, expect, it } from 'vitest'
import { checkReadOnlyCommand } from './bash-readonly.js'

describe('checkReadOnlyCommand', () => {
  it.each([
    'ls -la',
    'cat MEMORY.md',
    'grep -rn "real DB" . | head -20',
    'find . -name "*.md" -newer MEMORY.md',
    'wc -l *.md && ls',
    'cat a.md 2>/dev/null',
    'grep x f 2>&1 | sort | uniq -c',
    "sed -n '1,20p' file.md",
    'echo "a > b"',
    "grep 'foo|bar' x",
    'head -n 5 < input.md',
    'ls # trailing comment > x',
  ])('allows %s', (cmd) => {
    expect(checkReadOnlyCommand(cmd)).toEqual({ readOnly: true })
  })

  it.each([
    ['echo x > f', 'output redirection'],
    ['echo x >> f', 'output redirection'],
    ['ls &> out', 'output redirection'],
    ['cat a 2> err.log', 'output redirection'],
    ['rm -rf /tmp/x', '`rm` is not a read-only command'],
    ['rm -rf ~', '`rm` is not a read-only command'],
    ['mv a b', '`mv`'],
    ['cat a | tee b', '`tee`'],
    ['$(touch z)', 'command substitution'],
    ['echo `touch z`', 'command substitution'],
    ['echo "$(touch z)"', 'command substitution'],
    ['ls; touch z', '`touch`'],
    ['ls && rm a', '`rm`'],
    ['ls || cp a b', '`cp`'],
    ["sed -i 's/a/b/' f", 'sed -i'],
    ["sed -ni 's/a/b/p' f", 'sed -i'],
    ["sed 's/a/b/w out' f", 'writes files'],
    ['find . -delete', '-delete'],
    ['find . -exec rm {} ;', '-exec'],
    ['sort -o out in', 'sort -o'],
    ['uniq in out', 'writes OUT'],
    ['sleep 100 &', 'background'],
    ['(rm x)', 'subshell'],
    ['diff <(ls) b', 'process substitution'],
    ['FOO=1 ls', 'environment'],
    ['/bin/rm x', 'by name'],
    ['xargs rm < list', '`xargs`'],
    ['git status', '`git`'],
    ['awk \'{print > "f"}\' x', '`awk`'],
    ['cat <<EOF > f', '<<'],
    ['echo "unterminated', 'unterminated'],
    ['', 'empty'],
    ['echo ${X:=y}', 'parameter expansion'],
  ])('refuses %s', (cmd, reason) => {
    const v = checkReadOnlyCommand(cmd)
    expect(v.readOnly).toBe(false)
    if (!v.readOnly) expect(v.reason).toContain(reason)
  })
})
