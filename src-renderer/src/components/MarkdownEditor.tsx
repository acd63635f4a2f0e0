import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { markdown } from '@codemirror/lang-markdown'
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { Annotation, EditorState } from '@codemirror/state'
import { EditorView, keymap, placeholder as placeholderExt } from '@codemirror/view'
import { useLayoutEffect, useRef } from 'react'

/** Marks the editor's own catching up with `value`: not an edit, so not reported as one. */
const fromValue = Annotation.define<true>()

/**
 * `text` as the editor holds it: CodeMirror splits lines at CRLF and CR too and joins them with LF,
 * so a file saved on Windows would otherwise read as changed the moment it is shown. The host puts
 * the file's own line breaks back when it saves (core/store/line-breaks.ts).
 */
const asEditorText = (text: string): string => text.replace(/\r\n?/g, '\n')

interface Props {
  value: string
  onChange: (text: string) => void
  onSave?: () => void
  readOnly?: boolean
  label: string
  placeholder?: string
}

/**
 * The Markdown editor (CodeMirror 6, as Obsidian uses): undo history, Markdown highlighting,
 * Ctrl/Cmd+S saves. The document follows `value` when it changes from outside (a reload).
 */
export function MarkdownEditor({ value, onChange, onSave, readOnly = false, label, placeholder }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView>(undefined)
  const latest = useRef({ onChange, onSave })
  latest.current = { onChange, onSave }

  // Both effects run in the commit, in this order: the editor is made with the value the render
  // had, and a later value is applied before the next keystroke can reach the editor (applied a
  // frame later, as Preact runs plain effects, a value the editor itself reported a keystroke ago
  // would look like a change from outside and undo the keystrokes typed since).
  useLayoutEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          keymap.of([
            { key: 'Mod-s', preventDefault: true, run: () => (latest.current.onSave?.(), true) },
            ...defaultKeymap,
            ...historyKeymap,
            indentWithTab,
          ]),
          markdown(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorView.lineWrapping,
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true', role: 'textbox' }),
          ...(placeholder ? [placeholderExt(placeholder)] : []),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !u.transactions.some((t) => t.annotation(fromValue)))
              latest.current.onChange(u.state.doc.toString())
          }),
        ],
      }),
    })
    view.current = v
    return () => v.destroy()
    // One editor per mount (and read-only switch); `value` changes are applied below, keeping
    // the undo history.
  }, [readOnly])

  useLayoutEffect(() => {
    const v = view.current
    const text = asEditorText(value)
    if (v && v.state.doc.toString() !== text)
      v.dispatch({
        changes: { from: 0, to: v.state.doc.length, insert: text },
        annotations: fromValue.of(true),
      })
  }, [value])

  return <div className="md-editor" ref={host} />
}
