import { useEffect, useState } from 'react'
import type { PromptPreview } from '../../../src-shared/types'
import { errorMessage, getClient } from '../transport/client'
import { useStore } from '../store'
import { TextStats } from '../components/TextStats'
import { Segmented } from '../components/Segmented'

const MODES: PromptPreview['mode'][] = ['normal', 'team', 'kairos']

export function PromptView() {
  const memories = useStore((s) => s.memories)
  const [mode, setMode] = useState<PromptPreview['mode']>('normal')
  const [data, setData] = useState<PromptPreview>()
  const [error, setError] = useState<string>()
  useEffect(() => {
    const api = getClient()
    api['prompt/get']({ mode })
      .then(setData)
      .catch((e) => setError(errorMessage(e)))
  }, [mode, memories])
  return (
    <div className="page">
      <header className="pane-head">
        <h1>Memory prompt</h1>
        <Segmented
          label="Prompt mode"
          options={MODES}
          value={mode}
          onChange={setMode}
          render={(m) => (m === 'kairos' ? 'KAIROS (daily log)' : m)}
        />
      </header>
      <p className="muted">The section of the system prompt the agent receives for this workspace.</p>
      {error && <p className="error-text">{error}</p>}
      {data && !data.enabled && <p className="warning-box">Memory is disabled: {data.reason}</p>}
      {data?.prompt && <TextStats text={data.prompt} label="prompt" />}
      {data?.prompt && (
        <pre className="prompt" data-testid="prompt-text">
          {data.prompt}
        </pre>
      )}
    </div>
  )
}
