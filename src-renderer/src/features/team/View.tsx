import { SecretStored } from '../../components/SecretStored'
import { useState } from 'react'
import { RestoreMine } from '../history/RestoreMine'
import { useStore } from '../../app/store'
import { SubmitForm } from '../../components/SubmitForm'
import { errorMessage, relativeDate } from '../../lib/format'

const STATE_LABEL = {
  off: 'Team memory off',
  'not-configured': 'Not configured',
  ready: 'Connected',
  syncing: 'Syncing…',
  error: 'Sync failing',
} as const

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

export function TeamView() {
  const team = useStore((s) => s.team)
  const settings = useStore((s) => s.settings)
  const saveTeamServer = useStore((s) => s.saveTeamServer)
  const syncTeamNow = useStore((s) => s.syncNow)
  const setTeamEnabled = useStore((s) => s.setTeamEnabled)
  const [url, setUrl] = useState(settings?.teamUrl ?? '')
  const [token, setToken] = useState('')
  const [repo, setRepo] = useState(settings?.teamRepo ?? '')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  // The switch shows the user's choice while it is being applied, not the old state.
  const [pendingOn, setPendingOn] = useState<boolean>()

  const act = async (fn: () => Promise<void>) => {
    setBusy(true)
    setError(undefined)
    try {
      await fn()
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setBusy(false)
    }
  }
  const saveSettings = () =>
    act(async () => {
      await saveTeamServer({ teamUrl: url, teamRepo: repo, ...(token ? { teamToken: token } : {}) })
      setToken('')
    })
  const syncNow = () => act(syncTeamNow)
  const setSwitch = (on: boolean) => {
    setPendingOn(on)
    return act(async () => {
      // Applied at once: the workspace reopens with team memory on or off, no restart.
      await setTeamEnabled(on)
    }).finally(() => setPendingOn(undefined))
  }
  const state = team?.state ?? 'off'
  const envControlled = settings?.sources.teamMemoryEnabled?.source === 'env'

  const stateText = `${STATE_LABEL[state]}${state === 'ready' || state === 'syncing' ? ` · ${team?.repo}` : ''}`
  const last = team?.lastSync
  return (
    <div className="page">
      <header className="pane-head">
        <h1>Team sync</h1>
        <span className={`badge team-state ${state}`} data-testid="team-state" title={stateText}>
          {stateText}
        </span>
      </header>
      <label className="switch-row">
        <input
          type="checkbox"
          role="switch"
          aria-label="Team memory"
          checked={pendingOn ?? state !== 'off'}
          disabled={busy || envControlled}
          onChange={(e) => void setSwitch(e.target.checked)}
        />
        <span>
          <strong>Team memory</strong>{' '}
          <span className="muted">
            {envControlled
              ? `set by ${settings?.sources.teamMemoryEnabled?.envVar}`
              : 'the team/ folder, shared with your team through the server below'}
          </span>
        </span>
      </label>
      <p className="muted">
        Files in <code>team/</code> are shared through the team server: pulls let the server win; pushes send
        only changed files. Files over 250 KB and files containing secrets are never uploaded. The server,
        repo and token below belong to this project only.
      </p>
      {state === 'not-configured' && team?.reason && (
        <p className="warning-box">Not syncing yet: {team.reason}</p>
      )}
      <SubmitForm className="form-grid" onSubmit={saveSettings}>
        <label className="wide">
          Server URL
          <input
            name="teamUrl"
            placeholder="https://team-memory.example.com"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <label>
          Token{' '}
          <SecretStored
            settings={settings}
            name="teamToken"
            set={Boolean(team?.tokenSet || settings?.teamTokenSet)}
          />
          <input
            name="teamToken"
            type="password"
            placeholder="tmt_…"
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
        </label>
        <label>
          Repo{' '}
          <span className="muted">
            {team?.repoDefault
              ? `(default: ${team.repoDefault}, the git origin)`
              : '(no git origin names an owner/name here: type one)'}
          </span>
          <input
            name="teamRepo"
            placeholder={team?.repoDefault ?? 'owner/name'}
            value={repo}
            onChange={(e) => setRepo(e.target.value)}
          />
        </label>
        <div className="actions wide">
          <button type="submit" disabled={busy}>
            Save
          </button>
          <span className="spacer" />
          <button
            type="button"
            className="primary"
            disabled={busy || !team?.enabled}
            onClick={() => void syncNow()}
          >
            {busy || team?.syncing ? 'Syncing…' : 'Sync now'}
          </button>
        </div>
      </SubmitForm>
      {error && <p className="error-text">{error}</p>}
      {state === 'error' && team?.lastError && (
        <p className="error-text" role="alert">
          Last sync failed: {team.lastError}
        </p>
      )}
      {last && (
        <section className="sync-result" aria-label="Last sync" data-testid="last-sync">
          <h2>
            Last sync <time title={new Date(last.at).toLocaleString()}>{relativeDate(last.at)}</time>
            {team?.repo ? ` · ${team.repo}` : ''}
            {team?.url ? ` on ${hostOf(team.url)}` : ''}
          </h2>
          {last.pulled.length + last.pushed.length + last.skipped.length + last.conflicts.length === 0 ? (
            <p className="muted">Up to date: nothing to pull or push.</p>
          ) : (
            <div className="stats">
              <div>
                <strong>{last.pulled.length}</strong> pulled
              </div>
              <div>
                <strong>{last.pushed.length}</strong> pushed
              </div>
              <div>
                <strong>{last.skipped.length}</strong> skipped
              </div>
            </div>
          )}
          {last.conflicts.length > 0 && (
            <div className="warning-box" role="alert" data-testid="team-conflicts">
              <p>
                Changed here and on the server: the server&apos;s version is on disk, yours is in history.
              </p>
              <ul>
                {last.conflicts.map((c) => (
                  <li key={c.key}>
                    <span className="mono">team/{c.key}</span>{' '}
                    {c.localVersion && <RestoreMine path={`team/${c.key}`} version={c.localVersion} />}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {last.skipped.length > 0 && (
            <ul className="skipped">
              {last.skipped.map((s) => (
                <li key={s.key}>
                  <span className="mono">{s.key}</span> — {s.reason}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  )
}
