import { useState } from 'react'
import { errorMessage, getClient } from '../transport/client'

/** "Restore mine" for a team conflict: puts the local version back; the next push sends it. */
export function RestoreMine({ path, version }: { path: string; version: number }) {
  const [state, setState] = useState<string>()
  if (state) return <span className="muted">{state}</span>
  const restore = async () => {
    try {
      await getClient()['history/restore']({ path, id: version })
      setState(`Restored your ${path}; it is pushed with the next sync`)
    } catch (e) {
      setState(errorMessage(e))
    }
  }
  return <button onClick={() => void restore()}>Restore mine: {path}</button>
}
