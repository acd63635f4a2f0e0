import { SecretStored } from '../../components/SecretStored'
import { useState } from 'react'
import type { SettingsInput } from '../../../../src-shared/contract'
import type { ClientMemoryView } from '../../../../src-shared/types'
import { errorMessage } from '../../lib/format'
import { useStore } from '../../app/store'
import { useRpc } from '../../app/use-rpc'
import { IntegrationsPanel } from './IntegrationsPanel'
import { setThemePreference, themePreference, type ThemePreference } from '../../lib/theme'
import { SubmitForm } from '../../components/SubmitForm'

/** Where a value in use comes from, when it is not the saved setting: the environment wins. */
function FromEnv({ field }: { field: string }) {
  const src = useStore((s) => s.settings?.sources[field])
  if (src?.source !== 'env') return null
  return (
    <span className="badge env-badge" title="An environment variable overrides the saved setting">
      from {src.envVar}
    </span>
  )
}

/** The theme lives in this browser/app profile, not in the settings file: it is the UI's, not Memdir's. */
function Appearance() {
  const [pref, setPref] = useState<ThemePreference>(themePreference())
  return (
    <section className="settings" aria-label="Appearance">
      <fieldset>
        <legend>Appearance</legend>
        <p className="muted">Applies at once, in this window only.</p>
        <label>
          Theme
          <select
            name="theme"
            value={pref}
            onChange={(e) => {
              const p = e.target.value as ThemePreference
              setThemePreference(p)
              setPref(p)
            }}
          >
            <option value="system">Follow the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </fieldset>
    </section>
  )
}

export function SettingsView() {
  const settings = useStore((s) => s.settings)
  const saveSettings = useStore((s) => s.saveSettings)
  const [form, setForm] = useState<SettingsInput>({})
  const [saved, setSaved] = useState(false)
  const [error, setError] = useState<string>()
  const integrations = useRpc('integrations/get')
  if (!settings || (!integrations.data && !integrations.error))
    return <div className="loading">Loading settings…</div>
  const v = <K extends keyof SettingsInput>(k: K, fallback: SettingsInput[K]) =>
    (form[k] ?? fallback) as NonNullable<SettingsInput[K]>
  const edit = (patch: SettingsInput) => {
    setSaved(false)
    setForm((f) => ({ ...f, ...patch }))
  }
  const save = async () => {
    setError(undefined)
    try {
      await saveSettings(form)
      setForm({})
      setSaved(true)
    } catch (e) {
      setError(errorMessage(e))
    }
  }
  return (
    <div className="page">
      <header className="pane-head">
        <h1>Settings</h1>
      </header>
      {settings.problem && (
        <p className="warning-box" role="alert">
          The settings file could not be read ({settings.problem}). It is kept aside when you save; defaults
          apply until then.
        </p>
      )}
      <Appearance />
      <IntegrationsPanel integrations={integrations} />
      <SubmitForm className="settings" onSubmit={save}>
        <fieldset>
          <legend>Model</legend>
          <p className="muted">
            Any Messages-API-compatible endpoint. Without a key, recall uses the offline ranker and extraction
            waits.
          </p>
          <div className="form-grid">
            <label className="wide">
              Base URL <FromEnv field="baseURL" />
              <input
                placeholder="https://api.anthropic.com"
                value={v('modelBaseURL', settings.modelBaseURL)}
                onChange={(e) => edit({ modelBaseURL: e.target.value })}
              />
            </label>
            <label className="wide">
              API key <SecretStored settings={settings} name="apiKey" set={settings.modelApiKeySet} />{' '}
              <FromEnv field="apiKey" />
              <input
                type="password"
                placeholder="sk-ant-…"
                value={form.modelApiKey ?? ''}
                onChange={(e) => edit({ modelApiKey: e.target.value })}
              />
            </label>
            <label>
              Recall selector model <FromEnv field="selectorModel" />
              <input
                value={v('selectorModel', settings.selectorModel)}
                onChange={(e) => edit({ selectorModel: e.target.value })}
              />
            </label>
            <label>
              Extraction / dream model <FromEnv field="agentModel" />
              <input
                value={v('agentModel', settings.agentModel)}
                onChange={(e) => edit({ agentModel: e.target.value })}
              />
            </label>
          </div>
        </fieldset>
        <fieldset>
          <legend>Background work</legend>
          <label className="check">
            <input
              type="checkbox"
              checked={v('extractionEnabled', settings.extractionEnabled)}
              onChange={(e) => edit({ extractionEnabled: e.target.checked })}
            />
            Extract memories when a Claude Code turn ends <FromEnv field="extractionEnabled" />
          </label>
          {settings.client?.extracts && (
            <p className="muted small" data-testid="client-extracts">
              Claude Code saves memories itself; Memdir reviews, checks and syncs them. Turns it saves from
              are not extracted again.
            </p>
          )}
          <label className="check">
            <input
              type="checkbox"
              checked={v('dreamEnabled', settings.dreamEnabled)}
              onChange={(e) => edit({ dreamEnabled: e.target.checked })}
            />
            Consolidate memories in the background (dream)
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={v('reviewMode', settings.reviewMode)}
              onChange={(e) => edit({ reviewMode: e.target.checked })}
            />
            Review mode: extraction and dream propose changes; nothing is written until you approve it in the
            inbox
          </label>
          <label className="check">
            <input
              type="checkbox"
              name="keepInBackground"
              checked={v('keepInBackground', settings.keepInBackground)}
              onChange={(e) => edit({ keepInBackground: e.target.checked })}
            />
            Keep running in the background (desktop app): closing the window leaves Memdir in the tray, still
            extracting, consolidating and syncing
          </label>
          <label className="check">
            <input
              type="checkbox"
              name="startAtLogin"
              checked={v('startAtLogin', settings.startAtLogin)}
              onChange={(e) => edit({ startAtLogin: e.target.checked })}
            />
            Start Memdir at login (desktop app)
          </label>
          <div className="form-grid">
            <label>
              Dream after at least (hours) <FromEnv field="dreamMinHours" />
              <input
                type="number"
                min={0}
                value={v('dreamMinHours', settings.dreamMinHours)}
                onChange={(e) => edit({ dreamMinHours: Number(e.target.value) })}
              />
            </label>
            <label>
              …and at least (sessions) <FromEnv field="dreamMinSessions" />
              <input
                type="number"
                min={0}
                step={1}
                value={v('dreamMinSessions', settings.dreamMinSessions)}
                onChange={(e) => edit({ dreamMinSessions: Number(e.target.value) })}
              />
            </label>
          </div>
        </fieldset>
        <fieldset>
          <legend>Team memory</legend>
          <label className="check">
            <input
              type="checkbox"
              name="teamMemoryEnabled"
              checked={v('teamMemoryEnabled', settings.teamMemoryEnabled) === true}
              disabled={settings.sources.teamMemoryEnabled?.source === 'env'}
              onChange={(e) => edit({ teamMemoryEnabled: e.target.checked })}
            />
            Share the team/ folder through a team server <FromEnv field="teamMemoryEnabled" />
          </label>
          <p className="muted small">
            Server, token and repo are on the{' '}
            <button type="button" className="link-button" onClick={() => useStore.getState().setView('team')}>
              Team sync
            </button>{' '}
            page.
          </p>
        </fieldset>
        <fieldset>
          <legend>Memory files</legend>
          <label>
            Frontmatter of new memories
            <select
              name="memoryFormat"
              value={v('memoryFormat', settings.memoryFormat)}
              onChange={(e) => edit({ memoryFormat: e.target.value as 'auto' | 'flat' | 'nested' })}
            >
              <option value="auto">What your Claude Code writes</option>
              <option value="flat">type: … (Claude Code up to 2.1.138)</option>
              <option value="nested">
                metadata.type and a kebab-case name (Claude Code 2.1.139 and later)
              </option>
            </select>
          </label>
          {settings.client && <ClientLine client={settings.client} />}
        </fieldset>
        <div className="actions">
          {error && <span className="error-text">{error}</span>}
          {saved && <span className="ok-text">Saved</span>}
          <span className="spacer" />
          <button className="primary" disabled={!Object.keys(form).length}>
            Save settings
          </button>
        </div>
      </SubmitForm>
    </div>
  )
}

/** Which Claude Code Memdir follows here, and how it writes new memories for it. */
function ClientLine({ client }: { client: ClientMemoryView }) {
  const format = client.format === 'nested' ? 'metadata.type, kebab-case name' : 'flat type'
  const stamps = client.stamps.length ? `; stamps ${client.stamps.join(', ')}` : ''
  const who = client.version
    ? `Claude Code ${client.version} (${client.versionSource === 'transcript' ? "this project's newest session" : 'the installed claude'})`
    : 'No Claude Code found for this project'
  return (
    <p className="muted small" data-testid="client-line">
      {who}: new memories are written with {format}
      {stamps}.
      {client.recalls ? ' It recalls memories itself: Memdir’s prompt hook leaves recall to it.' : ''}
    </p>
  )
}
