// The app's icons as inline SVG. Emoji and symbol glyphs (🔗, ⋯, ★, ✕, ↗) draw as empty boxes or tiny dots where
// no font has them (a Debian desktop with only Liberation fonts); a path draws the same everywhere. Each icon
// takes the text colour and is hidden from assistive technology: the button that holds it carries the name.
import type { ReactNode } from 'react'

interface IconProps {
  /** Edge length in px; the default sits on a 12px line. */
  size?: number
  className?: string
}

function Svg({ size = 12, className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  )
}

/** Two chain links: the pane follows the window's market. */
export function LinkIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M6.6 9.4l2.8-2.8" />
      <path d="M7.3 4.4l1.1-1.1a2.8 2.8 0 014 4l-1.1 1.1" />
      <path d="M8.7 11.6l-1.1 1.1a2.8 2.8 0 01-4-4l1.1-1.1" />
    </Svg>
  )
}

/** A push pin: the pane stays on its own market. */
export function PinIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M10 2l4 4" />
      <path d="M11.5 3.5L8 7 5 6.5 4 7.5l4.5 4.5 1-1L9 8l3.5-3.5" fill="currentColor" />
      <path d="M6.2 9.8L2.5 13.5" />
    </Svg>
  )
}

/** Three dots: a menu of further actions. */
export function MoreIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="3" cy="8" r="1.4" fill="currentColor" stroke="none" />
      <circle cx="8" cy="8" r="1.4" fill="currentColor" stroke="none" />
      <circle cx="13" cy="8" r="1.4" fill="currentColor" stroke="none" />
    </Svg>
  )
}

/** A star, filled when on: a watched market. */
export function StarIcon({ filled = false, ...props }: IconProps & { filled?: boolean }) {
  return (
    <Svg {...props}>
      <path
        d="M8 1.8l1.85 3.9 4.25.55-3.1 2.95.8 4.2L8 11.35 4.2 13.4l.8-4.2-3.1-2.95 4.25-.55z"
        fill={filled ? 'currentColor' : 'none'}
        strokeWidth={1.3}
      />
    </Svg>
  )
}

/** A cross: close or delete. */
export function CloseIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M4 4l8 8M12 4l-8 8" />
    </Svg>
  )
}

/** An arrow out of a box: opens in a new window. */
export function ExternalIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M9 2.5h4.5V7" />
      <path d="M13.5 2.5L7.5 8.5" />
      <path d="M12 10v3.5H2.5V4H6" />
    </Svg>
  )
}

/** A chevron: down when open, right when closed. */
export function ChevronIcon({ open, ...props }: IconProps & { open: boolean }) {
  return <Svg {...props}>{open ? <path d="M4 6l4 4 4-4" /> : <path d="M6 4l4 4-4 4" />}</Svg>
}

/** A diamond, filled for the brand mark, outlined for a level implied from the other book. */
export function DiamondIcon({ filled = false, ...props }: IconProps & { filled?: boolean }) {
  return (
    <Svg {...props}>
      <path d="M8 2l6 6-6 6-6-6z" fill={filled ? 'currentColor' : 'none'} strokeWidth={1.4} />
    </Svg>
  )
}

/** A dot: recording is off and can start. */
export function RecordIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="8" cy="8" r="4.5" fill="currentColor" stroke="none" />
    </Svg>
  )
}

/** A square: stop. */
export function StopIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="4" y="4" width="8" height="8" rx="1" fill="currentColor" stroke="none" />
    </Svg>
  )
}

/** An arrow leaving a bar: close a position (its opposite order, ready in the ticket). */
export function ExitIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M3 2.5v11" />
      <path d="M6 8h7.5" />
      <path d="M10.5 5l3 3-3 3" />
    </Svg>
  )
}

/** Two strands joining into one: merge YES and NO pairs. */
export function MergeIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M3 2.5c0 4 5 4 5 7.5v3.5" />
      <path d="M13 2.5c0 4-5 4-5 7.5" />
    </Svg>
  )
}

/** A bell: an alert about this. */
export function BellIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M4 11V7.5a4 4 0 018 0V11l1.2 1.5H2.8z" />
      <path d="M6.8 14h2.4" />
    </Svg>
  )
}
