import type { MemdirEvent } from '../../../src-shared/api.js'
import type { RpcResult } from '../../../src-shared/errors.js'
import type { Env } from '../../core/paths/context.js'
import type { SecretCipher } from '../settings/secrets.js'

export interface HostOptions {
  env: Env
  /** Workspace to open first; without one: the busiest project whose folder is known, else the demo. */
  projectRoot?: string
  /** Where the demo workspace's sample memories come from (resources/demo). */
  resourcesDir?: string
  teamPullIntervalMs?: number
  /** Listen for Claude Code hook hand-offs on the data dir's socket (default: yes). */
  agentSocket?: boolean
  /**
   * The OS keychain (the desktop app's `safeStorage`): team tokens and the API key are stored
   * encrypted with it, and plain ones an older settings file holds move there on start. Without
   * one (`memdir web`) they go to a file only the user can read.
   */
  secretCipher?: SecretCipher
}

export interface Host {
  /** Any method name and arguments: both are checked against the contract before a handler runs. */
  call: (method: unknown, args: unknown) => Promise<RpcResult<unknown>>
  onEvent: (listener: (e: MemdirEvent) => void) => () => void
  /** Waits for a running extraction (up to `drainMs`, default 60 s) and sync, then closes. */
  close: (drainMs?: number) => Promise<void>
}
