import '@fontsource-variable/inter'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { firstScreen, startApp } from './app/start'
import { initTheme } from './lib/theme'
import './styles.css'

initTheme()
// The first screen's calls leave before React's first render (a failure shows once App mounts).
startApp().catch(() => undefined)
const root = document.getElementById('root')
// The first screen is drawn once, with its memory list, instead of empty and then again: on a slow
// machine the empty render held the main thread while the list's answer waited behind it. A host
// slower than 1.5 s (a loaded machine) gets the window without the list first, never a blank one.
if (root)
  void firstScreen(1500).then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  )
