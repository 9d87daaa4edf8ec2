// Everything about alerts that floats over a window: toasts, the manager and the form. Mounted once by each view
// (main, market, event), which tells it the selected market and how it shows a market an alert is about.
import { useEffect, useRef } from 'react'
import {
  closeAlertForm,
  closeAlertManager,
  setOpenMarketHandler,
  toggleAlertManager,
  useAlertUi,
} from '../../store/alerts-ui'
import { AlertForm } from './AlertForm'
import { AlertManager } from './AlertManager'
import { AlertToasts } from './AlertToasts'

/** Alt+A (by key position, so it is the same on a Mac, where Option+A types "å"). */
export function isAlertsShortcut(e: KeyboardEvent): boolean {
  return (
    e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && (e.code === 'KeyA' || e.key.toLowerCase() === 'a')
  )
}

export function AlertsLayer({
  market,
  onOpenMarket,
}: {
  market: string | null
  onOpenMarket?: (market: string) => void
}) {
  const form = useAlertUi((s) => s.form)
  const managerOpen = useAlertUi((s) => s.managerOpen)
  const latest = useRef(onOpenMarket)
  useEffect(() => {
    latest.current = onOpenMarket
  })
  useEffect(() => {
    useAlertUi.setState({ selectedMarket: market })
  }, [market])
  useEffect(() => {
    setOpenMarketHandler((m) => {
      const open = latest.current
      if (!open) return false
      open(m)
      return true
    })
    return () => setOpenMarketHandler(null)
  }, [])
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isAlertsShortcut(e)) return
      e.preventDefault()
      toggleAlertManager()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  return (
    <>
      <AlertToasts />
      {managerOpen ? <AlertManager onClose={closeAlertManager} /> : null}
      {form ? <AlertForm key={form.n} initial={form.draft} onClose={closeAlertForm} /> : null}
    </>
  )
}
