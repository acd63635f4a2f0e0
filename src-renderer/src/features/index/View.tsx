import { useRpc } from '../../app/use-rpc'

function Meter({
  label,
  value,
  max,
  unit,
  testId,
}: {
  label: string
  value: number
  max: number
  unit: string
  testId: string
}) {
  const pct = Math.min(100, (value / max) * 100)
  const level = value > max ? 'over' : pct > 80 ? 'near' : 'ok'
  return (
    <div className={`meter ${level}`} data-testid={testId}>
      <div className="meter-label">
        <span>{label}</span>
        <span className="mono">
          {value.toLocaleString('en-US')} / {max.toLocaleString('en-US')} {unit}
        </span>
      </div>
      <div className="meter-track">
        <div className="meter-fill" style={{ width: `${pct}%` }} />
      </div>
    </div>
  )
}

export function IndexView() {
  const { data, error } = useRpc('index/get')

  if (error) return <p className="error-text">{error}</p>
  if (!data) return <div className="loading">Loading MEMORY.md…</div>
  const lines = data.raw.trim() ? data.raw.replace(/\n$/, '').split('\n') : []
  return (
    <div className="page">
      <header className="pane-head">
        <h1>MEMORY.md</h1>
        <span className="muted mono">{data.path}</span>
      </header>
      <p className="muted">
        The index the agent loads at the start of every session. Lines past the limits are not loaded;
        frontmatter and HTML comments are stripped before the limits count.
      </p>
      <div className="meters">
        <Meter label="Lines" value={data.lineCount} max={data.maxLines} unit="lines" testId="meter-lines" />
        <Meter
          label="Size"
          value={data.charCount}
          max={data.maxChars}
          unit="characters"
          testId="meter-chars"
        />
      </div>
      {data.warning && (
        <p className="warning-box" role="alert" data-testid="index-warning">
          {data.warning}
        </p>
      )}
      {!lines.length ? (
        <div className="empty-state small">
          <p>MEMORY.md is empty. Saving a memory adds its one-line pointer here.</p>
        </div>
      ) : (
        <ol className="index-lines" aria-label="MEMORY.md lines">
          {lines.map((l, i) => (
            <li
              key={i}
              className={data.lineStates[i] === 'loaded' ? '' : data.lineStates[i]}
              data-cut={data.lineStates[i] === 'cut' ? 'true' : undefined}
              data-stripped={data.lineStates[i] === 'stripped' ? 'true' : undefined}
              title={
                data.lineStates[i] === 'stripped'
                  ? 'Not loaded: frontmatter and HTML comments are stripped'
                  : undefined
              }
            >
              <span className="ln">{i + 1}</span>
              <span className="mono">{l || ' '}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
