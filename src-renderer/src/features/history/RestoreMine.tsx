import { useState } from 'react'
import { useStore } from '../../app/store'
import { errorMessage } from '../../lib/format'

/** "Restore mine" for a team conflict: puts the local version back; the next push sends it. */
export function RestoreMine({ path, version }: { path: string; version: number }) {
  const restoreVersion = useStore((s) => s.restoreVersion)
  const [state, setState] = useState<string>()
  if (state) return <span className="muted">{state}</span>
  const restore = async () => {
    try {
      await restoreVersion(path, version)
      setState(`Restored your ${path}; it is pushed with the next sync`)
    } catch (e) {
      setState(errorMessage(e))
    }
  }
  return <button onClick={() => void restore()}>Restore mine: {path}</button>
}
