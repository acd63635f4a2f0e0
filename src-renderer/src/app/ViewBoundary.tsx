import { Component, lazy, type ComponentType, type ReactNode } from 'react'
import { onConnectionChange } from '../transport/client'

/**
 * A view loaded on first use. When its code cannot be fetched (the server is down), the next
 * render tries again instead of keeping React.lazy's cached failure.
 */
export function lazyView(load: () => Promise<ComponentType>): ComponentType & { reset: () => void } {
  const make = () => lazy(() => load().then((c) => ({ default: c })))
  let Inner = make()
  const View = Object.assign(() => <Inner />, {
    reset: () => {
      Inner = make()
    },
  })
  return View
}

interface Props {
  children: ReactNode
  /** Which view: a new one starts clean. */
  name: string
  onRetry: () => void
}

/** Shows why a view could not load — in words, with a way to try again — instead of a blank page. */
export class ViewBoundary extends Component<Props, { error?: string; name: string }> {
  override state: { error?: string; name: string } = { name: this.props.name }
  private off?: () => void

  static getDerivedStateFromError(e: unknown) {
    const message = e instanceof Error ? e.message : String(e)
    return {
      error: /fetch|import|chunk|module/i.test(message)
        ? 'Memdir is not reachable: this view could not be loaded. It loads again once Memdir is back.'
        : message,
    }
  }

  static getDerivedStateFromProps(props: Props, state: { error?: string; name: string }) {
    return props.name === state.name ? null : { name: props.name, error: undefined }
  }

  override componentDidMount() {
    this.off = onConnectionChange((c) => {
      if (c === 'connected' && this.state.error) this.retry()
    })
  }

  override componentWillUnmount() {
    this.off?.()
  }

  private retry = () => {
    this.props.onRetry()
    this.setState({ error: undefined })
  }

  override render() {
    if (!this.state.error) return this.props.children
    return (
      <div className="page" role="alert">
        <p className="error-text">{this.state.error}</p>
        <button onClick={this.retry}>Try again</button>
      </div>
    )
  }
}
