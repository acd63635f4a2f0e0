import { useLayoutEffect, type RefObject } from 'react'

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * Keeps keyboard focus inside a modal while it is open: Tab and Shift+Tab cycle through its
 * controls, focus that lands behind it (a click on the page, a script) is brought back, and the
 * app's keyboard shortcuts wait, so nothing behind the modal takes input. Installed in the commit
 * that shows the modal, so a key pressed right after it appears is already held.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, active: boolean): void {
  useLayoutEffect(() => {
    if (!active) return
    const inside = () => [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])]
    const onKey = (e: KeyboardEvent) => {
      // The app's shortcuts (Ctrl+S saves, Ctrl+N starts a memory) listen on the window: they act on
      // what is behind the modal, so they stop here. The key's own effect in a field (copy, paste) stays.
      if (e.ctrlKey || e.metaKey || e.altKey) return e.stopPropagation()
      if (e.key !== 'Tab') return
      const items = inside()
      if (!items.length) return
      const at = items.indexOf(document.activeElement as HTMLElement)
      const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : at === items.length - 1 ? 0 : at + 1
      e.preventDefault()
      items[next]!.focus()
    }
    const onFocus = (e: FocusEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) inside()[0]?.focus()
    }
    document.addEventListener('keydown', onKey, true)
    document.addEventListener('focusin', onFocus)
    return () => {
      document.removeEventListener('keydown', onKey, true)
      document.removeEventListener('focusin', onFocus)
    }
  }, [ref, active])
}
