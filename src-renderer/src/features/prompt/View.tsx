import { useState } from 'react'
import type { PromptPreview } from '../../../../src-shared/types'
import { useRpc } from '../../app/use-rpc'
import { TextStats } from '../../components/TextStats'
import { Segmented } from '../../components/Segmented'

const MODES: PromptPreview['mode'][] = ['normal', 'team', 'kairos']

export function PromptView() {
  const [mode, setMode] = useState<PromptPreview['mode']>('normal')
  const { data, error } = useRpc('prompt/get', { mode })
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
