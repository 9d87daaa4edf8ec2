// A labelled number field: the label's text, then the input. The value is the text as typed ("0.", ""), so a
// field never fights the keyboard; the caller decides what a number is (the alert form checks on save, the
// tape's filters read a positive number as they go).
import type { ReactNode, Ref } from 'react'

export interface NumberFieldProps {
  /** The label's text. */
  label: ReactNode
  /** The input's own accessible name, where the label's text is short for the eye (e.g. "≥"). */
  ariaLabel?: string
  value: string
  onChange(text: string): void
  /** The label's class (the form's layout: 'grow', 'inline'). */
  className?: string
  /** Default 'num-input'. */
  inputClassName?: string
  /** Whole numbers only: the numeric keypad rather than the decimal one. */
  integer?: boolean
  /** The browser's number input (steppers, nothing below 0), instead of text checked by the caller. */
  stepper?: boolean
  name?: string
  testId?: string
  /** The tooltip, on the label and so on its input. */
  title?: string
  placeholder?: string
  invalid?: boolean
  /** The id of the message that explains an invalid value. */
  describedBy?: string
  inputRef?: Ref<HTMLInputElement>
}

export function NumberField({
  label,
  ariaLabel,
  value,
  onChange,
  className,
  inputClassName = 'num-input',
  integer = false,
  stepper = false,
  name,
  testId,
  title,
  placeholder,
  invalid,
  describedBy,
  inputRef,
}: NumberFieldProps) {
  return (
    <label className={className} title={title}>
      <span aria-hidden={ariaLabel === undefined ? undefined : true}>{label}</span>
      <input
        ref={inputRef}
        {...(stepper ? { type: 'number', min: 0, step: 'any' } : {})}
        name={name}
        data-testid={testId}
        className={inputClassName}
        inputMode={integer ? 'numeric' : 'decimal'}
        autoComplete="off"
        aria-label={ariaLabel}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  )
}
