export type ThemePreference = 'system' | 'light' | 'dark'

const KEY = 'memdir.theme'
const media = () => window.matchMedia('(prefers-color-scheme: dark)')

export function themePreference(): ThemePreference {
  const v = localStorage.getItem(KEY)
  return v === 'light' || v === 'dark' ? v : 'system'
}

function apply(pref: ThemePreference) {
  const dark = pref === 'dark' || (pref === 'system' && media().matches)
  document.documentElement.dataset.theme = dark ? 'dark' : 'light'
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light'
}

export function setThemePreference(pref: ThemePreference): void {
  if (pref === 'system') localStorage.removeItem(KEY)
  else localStorage.setItem(KEY, pref)
  apply(pref)
}

/** Applies the saved preference now and follows the system while it is "system". */
export function initTheme(): void {
  apply(themePreference())
  media().addEventListener('change', () => apply(themePreference()))
}
