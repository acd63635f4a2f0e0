import { useState } from 'react'
import type { HookPlanView, HooksOff, HookStatusView, IntegrationsView } from '../../../../src-shared/types'
import { useStore } from '../../app/store'
import type { RpcState } from '../../app/use-rpc'
import { errorMessage } from '../../lib/format'

const SCOPE_LABEL = {
  user: 'User (every project)',
  project: 'Project (shared, committed)',
  local: 'Local (this checkout, not committed)',
} as const

function statusText(h: HookStatusView): string {
  if (h.problem) return 'Unreadable'
  if (h.installed) return h.outdated ? 'Installed (another Memdir’s command)' : 'Installed'
  if (Object.values(h.events).some(Boolean)) return 'Partly installed'
  return 'Not installed'
}

/** Claude Code's settings turn every hook off here: installed or not, none of Memdir's runs. */
function HooksOffNote({ off }: { off: HooksOff }) {
  return (
    <p className="warning-box" role="status" aria-label="Hooks turned off">
      {off.setting === 'allowManagedHooksOnly' ? (
        <>
          Claude Code runs only the hooks of its managed settings here (<code>allowManagedHooksOnly</code> in{' '}
          <code>{off.path}</code>): Memdir’s hooks do not run.
        </>
      ) : (
        <>
          Claude Code runs no hooks in this project: <code>disableAllHooks</code> is true in{' '}
          <code>{off.path}</code>. Memdir’s hooks do not run until it is removed.
        </>
      )}
    </p>
  )
}

/** A unified diff, coloured by line. */
function PatchView({ patch }: { patch: string }) {
  const lines = patch.split('\n').slice(2) // the Index/=== header lines say nothing here
  return (
    <pre className="diff" aria-label="Settings file change">
      {lines.map((l, i) => (
        <div
          key={i}
          className={
            l.startsWith('+') && !l.startsWith('+++')
              ? 'diff-add'
              : l.startsWith('-') && !l.startsWith('---')
                ? 'diff-del'
                : ''
          }
        >
          {l || ' '}
        </div>
      ))}
    </pre>
  )
}

function CopyBlock({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <div className="copy-block">
      <div className="copy-head">
        <strong>{label}</strong>
        <button
          type="button"
          className="ghost"
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre aria-label={label}>{text}</pre>
    </div>
  )
}

/**
 * Settings → Integrations: Claude Code hooks per scope, and MCP configs for other agents. The page
 * reads `integrations` (useRpc('integrations/get')) and draws once it has it, so the fields below
 * this panel do not move down the page when it arrives.
 */
export function IntegrationsPanel({ integrations }: { integrations: RpcState<IntegrationsView> }) {
  const planHooks = useStore((s) => s.planHooks)
  const applyHooks = useStore((s) => s.applyHooks)
  const view = integrations.data
  const [plan, setPlan] = useState<HookPlanView>()
  const [actError, setActError] = useState<string>()
  const error = actError ?? integrations.error
  const setError = setActError
  const [done, setDone] = useState<string>()

  const propose = async (scope: HookStatusView['scope'], action: 'install' | 'uninstall') => {
    setError(undefined)
    setDone(undefined)
    try {
      setPlan(await planHooks(scope, action))
    } catch (e) {
      setError(errorMessage(e))
    }
  }
  const apply = async () => {
    if (!plan) return
    try {
      const r = await applyHooks(plan)
      setDone(
        `${plan.action === 'install' ? 'Installed in' : 'Removed from'} ${plan.path}${r.backup ? ` — the previous file is kept at ${r.backup}` : ''}`,
      )
      setPlan(undefined)
      integrations.reload()
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  if (!view) return <p className="error-text">{error ?? 'Integrations are not loaded.'}</p>
  return (
    <section className="settings integrations" aria-label="Integrations">
      <fieldset>
        <legend>Claude Code hooks</legend>
        <p className="muted">
          Before each prompt Claude Code asks Memdir for the relevant memories; when a turn ends, Memdir saves
          what it learned. The hooks run <code>{view.hookCommand}</code>.
        </p>
        {view.hooksOff && <HooksOffNote off={view.hooksOff} />}
        <table className="hook-table">
          <tbody>
            {view.hooks.map((h) => (
              <tr key={h.scope}>
                <th scope="row">{SCOPE_LABEL[h.scope]}</th>
                <td className="mono path-cell" title={h.path}>
                  {h.path}
                </td>
                <td
                  className={h.installed ? 'ok-text' : h.problem ? 'error-text' : 'muted'}
                  title={h.problem}
                >
                  {statusText(h)}
                </td>
                <td>
                  {h.installed || Object.values(h.events).some(Boolean) ? (
                    <button type="button" onClick={() => void propose(h.scope, 'uninstall')}>
                      Uninstall
                    </button>
                  ) : null}
                  {(!h.installed || h.outdated) && !h.problem && (
                    <button
                      type="button"
                      className="primary"
                      onClick={() => void propose(h.scope, 'install')}
                    >
                      Install
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {plan && (
          <div className="hook-plan" role="dialog" aria-label="Review the settings change">
            {plan.changed ? (
              <>
                <p>
                  This is the change to <code>{plan.path}</code>. Nothing else in the file changes; a backup
                  is kept.
                </p>
                <PatchView patch={plan.diff} />
                <div className="actions">
                  <button type="button" className="primary" onClick={() => void apply()}>
                    Write this change
                  </button>
                  <button type="button" className="ghost" onClick={() => setPlan(undefined)}>
                    Cancel
                  </button>
                </div>
              </>
            ) : (
              <p className="muted">
                {plan.path}: nothing to change.{' '}
                <button type="button" className="link-button" onClick={() => setPlan(undefined)}>
                  Close
                </button>
              </p>
            )}
          </div>
        )}
        {done && <p className="ok-text">{done}</p>}
        {error && <p className="error-text">{error}</p>}
      </fieldset>
      <fieldset>
        <legend>Other agents (MCP)</legend>
        <p className="muted">
          <code>memdir mcp</code> serves this project’s memory to any MCP client: list, read, search, write
          and delete, with the same history, review and secret checks as this app.
        </p>
        <p className="muted">
          Each one names this project. Run Claude Code’s command in the project’s folder (it keeps the server
          for the folder it runs in); Cursor, Codex and Gemini read theirs from the project’s own file below
          (Codex once you trust the project): in their user-wide file it would serve this project’s memory in
          every project.
        </p>
        <CopyBlock label="Claude Code" text={view.mcp.claudeCode} />
        <CopyBlock label="Claude Desktop (claude_desktop_config.json)" text={view.mcp.claudeDesktop} />
        <CopyBlock label={`Cursor (${view.mcp.projectFiles.cursor})`} text={view.mcp.cursor} />
        <CopyBlock label={`Codex CLI (${view.mcp.projectFiles.codex})`} text={view.mcp.codex} />
        <CopyBlock label={`Gemini CLI (${view.mcp.projectFiles.gemini})`} text={view.mcp.gemini} />
      </fieldset>
    </section>
  )
}
