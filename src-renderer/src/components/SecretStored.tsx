import type { SettingsView } from '../../../src-shared/types'

const WHERE = {
  keychain: 'in the OS keychain',
  file: 'in a file only you can read',
  settings: 'in the settings file, as plain text',
} as const

/** "(set · in the OS keychain)": whether a secret is saved, and where it lives. */
export function SecretStored({
  settings,
  name,
  set,
}: {
  settings?: SettingsView
  name: 'teamToken' | 'apiKey'
  set: boolean
}) {
  if (!set) return null
  const where = settings?.secretStorage[name]
  return (
    <span className="muted" data-testid={`secret-${name}`}>
      (set{where ? ` · ${WHERE[where]}` : ''})
    </span>
  )
}
