import '@fontsource-variable/inter'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { startApp } from './app/start'
import { initTheme } from './lib/theme'
import './styles.css'

initTheme()
// The first screen's calls leave before React's first render (a failure shows once App mounts).
startApp().catch(() => undefined)
const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}
