import { useCallback, useReducer } from 'react'
import { daysAgoWhenReady } from './format'

/**
 * A memory's age for the memory list: the user's locale's words (Intl.RelativeTimeFormat) once its
 * formatter is made after the first screen, the host's English words until then; the component
 * draws again when the formatter is ready.
 */
export function useDaysAgo(): (days: number, fallback: string) => string {
  const [ready, redraw] = useReducer((n: number) => n + 1, 0)
  // `ready` is what makes a new function once the formatter is made, so the rows draw again.
  return useCallback((days: number, fallback: string) => daysAgoWhenReady(days, redraw) ?? fallback, [ready])
}
