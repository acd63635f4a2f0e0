import { CopyButton } from './CopyButton'
import { approxTokens, byteLength, formatBytes } from '../lib/format'

/** "12.3 KB · ≈ 3,100 tokens", and a copy button. */
export function TextStats({ text, label }: { text: string; label: string }) {
  return (
    <div className="text-stats">
      <span className="muted" data-testid={`${label}-size`}>
        {formatBytes(byteLength(text))} · ≈ {approxTokens(text).toLocaleString()} tokens
      </span>
      <CopyButton text={text} label={`Copy ${label}`} />
    </div>
  )
}
