import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { install, resolveVersion, type InstalledClient } from '../test/helpers/claude-code.js'

/**
 * The real Claude Code clients the e2e tests run: the last Node build and the newest build the
 * registry serves (native). Each is installed from the npm registry into a cache — never a
 * dependency. Without the registry a test is skipped with a loud warning; with
 * MEMDIR_REQUIRE_CLAUDE_CODE=1 (`npm run test:claude-code`) it fails instead.
 */
export const CLIENT_VERSIONS = (process.env.MEMDIR_CLAUDE_CODE_VERSIONS ?? '2.1.88,newest').split(',')

export const API_KEY = 'sk-ant-api03-memdir-e2e-key-000000000000'

export interface ClientOrSkip {
  client?: InstalledClient
  /** Why there is no client. */
  skipped?: string
}

/** Installs a client version, or says loudly why it cannot. */
export function realClient(requested: string): ClientOrSkip {
  const found = installOrSkip(
    `Claude Code ${requested}`,
    'MEMDIR_REQUIRE_CLAUDE_CODE',
    'test:claude-code',
    () => install(resolveVersion(requested)),
  )
  return found.value ? { client: found.value } : { skipped: found.skipped }
}

/**
 * Runs `install`, or, when it fails (no registry), warns loudly and says why; with `requireVar`
 * set to 1 (the npm script named) the failure is thrown instead, so the run cannot pass by skipping.
 */
export function installOrSkip<T>(
  label: string,
  requireVar: string,
  script: string,
  install: () => T,
): { value?: T; skipped?: string } {
  try {
    return { value: install() }
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? 'install failed'
    if (process.env[requireVar] === '1') throw new Error(`the real ${label} is required here: ${why}`)
    console.warn(
      `\n!!! SKIPPED: real-agent tests for ${label} did not run (${why}).\n` +
        `!!! They prove Memdir against the agent users run; \`npm run ${script}\` fails on this.\n`,
    )
    return { skipped: why }
  }
}

/** The environment a client runs in: the sandbox's HOME, the fake Messages API, no updater. */
export function clientEnv(env: Record<string, string | undefined>, baseUrl: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v
  return {
    ...out,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    IS_SANDBOX: '1',
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: API_KEY,
    DISABLE_AUTOUPDATER: '1',
  }
}

/**
 * The client's global config for a sandbox HOME: onboarding done, the API key approved, the project
 * trusted; `switches` are feature values as the client caches them (its own memory work).
 */
export function writeClientConfig(
  home: string,
  project: string,
  switches: Record<string, boolean> = {},
): void {
  mkdirSync(home, { recursive: true })
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: 'dark',
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      bypassPermissionsModeAccepted: true,
      cachedGrowthBookFeatures: switches,
      cachedFeatureFlags: switches,
      projects: { [project]: { hasTrustDialogAccepted: true } },
    }),
  )
}

/** Runs `claude -p` (or any arguments) to its end; its output is returned for failure messages. */
export function runClient(
  client: Pick<InstalledClient, 'cmd' | 'args'>,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(client.cmd, [...client.args, ...args], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (out += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out })
    })
  })
}
