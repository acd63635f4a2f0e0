import { execFileSync, spawnSync } from 'node:child_process'

/**
 * Drives the real Claude Code client interactively, as a person at a terminal would: some entries
 * (hook progress, the client's own memory notices) are only written by an interactive session.
 * Used by the fixture generators; needs tmux.
 */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function waitFor(
  what: string,
  check: () => boolean,
  ms: number,
  onTimeout: () => string,
): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${onTimeout()}`)
    await sleep(250)
  }
}

export class Tmux {
  private readonly socket = `memdir-gen-${process.pid}`
  constructor(private readonly session = 'cc') {}
  private run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' })
  }
  start(cwd: string, env: Record<string, string>, cmd: string[]): void {
    const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`)
    this.run(
      'new-session',
      '-d',
      '-s',
      this.session,
      '-x',
      '200',
      '-y',
      '60',
      '-c',
      cwd,
      'env',
      '-i',
      ...envArgs,
      ...cmd,
    )
  }
  pane(): string {
    try {
      return this.run('capture-pane', '-p', '-t', this.session)
    } catch {
      return ''
    }
  }
  alive(): boolean {
    return spawnSync('tmux', ['-L', this.socket, 'has-session', '-t', this.session]).status === 0
  }
  type(text: string): void {
    this.run('send-keys', '-t', this.session, '-l', text)
  }
  key(...keys: string[]): void {
    this.run('send-keys', '-t', this.session, ...keys)
  }
  kill(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server'])
  }
  /**
   * Ends the session and waits for the program in it to exit (it may still be writing its files
   * after the hang-up), killing it after `ms`: a test's temp dir can then be removed.
   */
  async stop(ms = 15_000): Promise<void> {
    let pid = 0
    try {
      pid = Number(this.run('display-message', '-p', '-t', this.session, '#{pane_pid}').trim())
    } catch {
      // no session left
    }
    this.kill()
    const running = () => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    const end = Date.now() + ms
    while (pid > 0 && running() && Date.now() < end) await sleep(100)
    if (pid > 0 && running()) process.kill(pid, 'SIGKILL')
  }
}

/** The client's start-up dialogs differ per version: answer each until the prompt box shows. */
export async function passDialogs(tmux: Tmux): Promise<void> {
  const end = Date.now() + 60_000
  let idle = 0
  while (Date.now() < end) {
    const pane = tmux.pane()
    if (/Do you want to use this API key/.test(pane)) tmux.key('Up', 'Enter')
    else if (/Do you trust the files|trust this folder|Yes, proceed/i.test(pane)) tmux.key('Enter')
    else if (/Choose the text style|Dark mode/i.test(pane) && !/shortcuts/.test(pane)) tmux.key('Enter')
    else if (/Yes, I accept/.test(pane)) tmux.key('Down', 'Enter')
    else if (/Press Enter to continue/i.test(pane)) tmux.key('Enter')
    else if (/for shortcuts|bypass permissions|Try "|\? for/.test(pane)) {
      if (++idle >= 4) return
    }
    await sleep(500)
  }
  throw new Error(`the client never showed its prompt:\n${tmux.pane()}`)
}
