import { describe, expect, it } from 'vitest'
import { withVisibleControls } from './terminal-text.js'

describe('withVisibleControls', () => {
  it('shows what a terminal would act on, as cat -v does, and keeps text, tabs and line ends', () => {
    expect(withVisibleControls('title \x1b]0;pwned\x07 and \x1b[2J\x1b[31mred')).toBe(
      'title ^[]0;pwned^G and ^[[2J^[[31mred',
    )
    expect(withVisibleControls('safe\roverwritten\x7f \x9b31m')).toBe('safe^Moverwritten^? <U+009B>31m')
    const plain = 'a\tb\nc\r\nd — é 🦀\n'
    expect(withVisibleControls(plain)).toBe(plain)
  })
})
