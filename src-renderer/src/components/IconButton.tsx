import type { ButtonHTMLAttributes, ReactNode } from 'react'

/** A button showing only an icon: `label` is what a screen reader says, `title` what the pointer sees. */
export function IconButton({
  label,
  icon,
  className = 'ghost icon-only',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { label: string; icon: ReactNode }) {
  return (
    <button type="button" className={className} aria-label={label} {...props}>
      {icon}
    </button>
  )
}
