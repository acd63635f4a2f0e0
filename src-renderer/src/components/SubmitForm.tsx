import type { FormHTMLAttributes } from 'react'

/** A form whose submit (Enter, the submit button) runs `onSubmit` instead of reloading the page. */
export function SubmitForm({
  onSubmit,
  ...props
}: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & { onSubmit: () => unknown }) {
  return (
    <form
      {...props}
      onSubmit={(e) => {
        e.preventDefault()
        void onSubmit()
      }}
    />
  )
}
