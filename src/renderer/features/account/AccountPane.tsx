// The account from the user channel: balances, positions, open orders, fills, and the raw feed (which also
// shows updates whose shape we could not interpret). Rows are memoised on the account's row objects, which an
// update replaces only for what it changed, so an update re-renders its own rows, not every table.
// Money in reais (balances whose currency is BRL: the engine has converted VoxFi's centavos) reads "R$ 1,234.56".
// Fills show the contract (YES/NO) and the fee where their update says (lib/fills.ts). Order and fill prices follow
// the price preference (¢ or probability); a position's average and mark stay in probability (R$ per contract),
// the terms its P&L is worked out in ((mark − avg) × size).
import { memo, useEffect, useId, useMemo, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import type { UserUpdateView } from '../../../shared/model'
import type { BalanceRow, FillRow, OrderRow, PositionRow } from '../../../shared/account'
import { refreshStatus, useApi, useInterests, useNow } from '../../hooks/context'
import { expiryState, explainError } from '../../lib/errors'
import { prefill } from '../../lib/alerts'
import { csvFilename, downloadCsv, fillsCsv } from '../../lib/csv'
import {
  formatAmount,
  formatClock,
  formatMid,
  formatMoney,
  formatPrice,
  formatSize,
  hasMoneySymbol,
  type PriceUnit,
} from '../../lib/format'
import { markOf, positionPnl, priceInputsIn, totalPnl, type Known, type Mark } from './pnl'
import { openAlertForm } from '../../store/alerts-ui'
import { useMarketTitles } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import { activeProfile, useProfiles } from '../../store/profiles'

const FEED_ROWS = 120

/** The envelope fields every user update repeats; the feed shows what differs. */
const ENVELOPE = new Set(['channel', 'type'])

function preview(data: unknown): string {
  let text: string
  try {
    const shown =
      typeof data === 'object' && data !== null && !Array.isArray(data)
        ? Object.fromEntries(Object.entries(data).filter(([k]) => !ENVELOPE.has(k)))
        : data
    text = JSON.stringify(shown) ?? String(data)
  } catch {
    text = String(data)
  }
  return text.length > 240 ? `${text.slice(0, 240)}…` : text
}

const FeedRow = memo(function FeedRow({ u }: { u: UserUpdateView }) {
  return (
    <div
      className="feed-row"
      data-testid="user-feed-row"
      data-topic={u.topic}
      data-market={u.market ?? undefined}
    >
      <span className="c-time">{formatClock(u.receivedAt)}</span>
      <span className={`tag tag-${u.topic}`}>{u.topic}</span>
      <span className="mono ellipsis" title={preview(u.data)}>
        {preview(u.data)}
      </span>
    </div>
  )
})

function MarketCell({ id, title }: { id: string | null; title: string | undefined }) {
  return (
    <td className="ellipsis" title={id ?? undefined}>
      {id === null ? '—' : (title ?? <span className="mono">{id}</span>)}
    </td>
  )
}

const BalanceCard = memo(function BalanceCard({ b }: { b: BalanceRow }) {
  return (
    <div className="balance-card" data-testid="balance" data-currency={b.currency}>
      <label>{b.currency}</label>
      <b className="num" data-testid="balance-total">
        {formatMoney(b.total ?? b.available, b.currency)}
      </b>
      <span className="muted num">available {formatMoney(b.available, b.currency)}</span>
    </div>
  )
})

function markText(mark: Mark): string {
  if (mark.price === null) return '—'
  return mark.source === 'mid' ? formatMid(mark.price) : formatPrice(mark.price)
}

function markTitle(mark: Mark, size: number, value: number | null): string {
  const head =
    mark.price === null
      ? (mark.reason ?? 'no price')
      : mark.source === 'mid'
        ? 'Mid of the live book'
        : (mark.reason ?? 'Last trade')
  return value === null ? head : `${head}. Market value ${formatAmount(value)} (${formatSize(size)} shares)`
}

const signClass = (v: number | null) => (v === null ? 'muted' : v >= 0 ? 'bid-text' : 'ask-text')

/** A P&L cell: the amount, or "—" with the reason it is unknown as its tooltip. */
function PnlCell({ testId, v, title }: { testId: string; v: Known; title: string }) {
  return (
    <td
      className={`num ${signClass(v.value)}`}
      data-testid={testId}
      data-known={v.value !== null}
      title={v.value === null ? (v.reason ?? undefined) : title}
    >
      {formatAmount(v.value)}
    </td>
  )
}

/**
 * One position, marked to its market's live price. It watches its own market (an interest of its own, released
 * on unmount) and selects only the plain values of its mark, so a book delta that leaves the top of the book
 * and the last trade unchanged does not re-render it, and another market never does.
 */
const PositionLine = memo(function PositionLine({ p, title }: { p: PositionRow; title: string | undefined }) {
  const id = useId()
  useInterests(`position${id}${p.market}`, [{ channel: 'market', id: p.market, filter: 'all' }])
  const inputs = useMonitor(useShallow((s) => priceInputsIn(s, p.market)))
  const row = positionPnl(p, markOf(inputs))
  const { mark } = row
  const venuePnl = p.pnl === null ? '' : `; the venue reports P&L ${formatAmount(p.pnl)}`
  return (
    <tr data-testid="position-row" data-market={p.market} data-size={p.size}>
      <MarketCell id={p.market} title={title} />
      <td className={`num ${p.size > 0 ? 'bid-text' : 'ask-text'}`}>{formatSize(p.size)}</td>
      <td
        className="num"
        data-testid="position-avg"
        title={p.avgPrice === null ? (row.unrealized.reason ?? undefined) : 'Average price (venue)'}
      >
        {formatPrice(p.avgPrice)}
      </td>
      <td
        className={`num pos-mark${mark.live ? '' : ' not-live'}`}
        data-testid="position-mark"
        data-source={mark.source ?? 'none'}
        data-live={mark.live}
        title={markTitle(mark, p.size, row.marketValue.value)}
      >
        {mark.source !== null ? <span className="mark-src">{mark.source}</span> : null}
        {markText(mark)}
      </td>
      <PnlCell
        testId="position-upnl"
        v={
          row.unrealized.value === null
            ? { ...row.unrealized, reason: `${row.unrealized.reason}${venuePnl}` }
            : row.unrealized
        }
        title={`(mark ${markText(mark)} − avg ${formatPrice(p.avgPrice)}) × ${formatSize(p.size)}${venuePnl}`}
      />
      <PnlCell testId="position-rpnl" v={row.realized} title="Realised P&L as the venue reports it" />
    </tr>
  )
})

function totalTitle(what: string, known: number, unknown: number): string {
  if (known === 0) return `No position has a known ${what}`
  return unknown === 0
    ? `Sum over ${known} position${known === 1 ? '' : 's'}`
    : `Partial: the sum over ${known} position${known === 1 ? '' : 's'}; ${unknown} unknown left out`
}

/** Sums of the known values only, and "partial" when some are unknown; never fills a gap with a guess. */
function PositionsTotal({ positions }: { positions: readonly PositionRow[] }) {
  const t = useMonitor(
    useShallow((s) => {
      const sums = totalPnl(positions.map((p) => positionPnl(p, markOf(priceInputsIn(s, p.market)))))
      return {
        mv: sums.marketValue.value,
        mvKnown: sums.marketValue.known,
        mvUnknown: sums.marketValue.unknown,
        u: sums.unrealized.value,
        uKnown: sums.unrealized.known,
        uUnknown: sums.unrealized.unknown,
        r: sums.realized.value,
        rKnown: sums.realized.known,
        rUnknown: sums.realized.unknown,
      }
    }),
  )
  // Partial: some values are summed and some left out. With none known the cell is "—" and says why.
  const uPartial = t.uKnown > 0 && t.uUnknown > 0
  const rPartial = t.rKnown > 0 && t.rUnknown > 0
  const partial = uPartial || rPartial
  const value = `Market value ${formatAmount(t.mv)}: ${totalTitle('mark', t.mvKnown, t.mvUnknown).toLowerCase()}`
  return (
    <tr className="positions-total" data-testid="positions-total" data-partial={partial}>
      <td colSpan={4} title={value}>
        Total{partial ? <span className="muted total-partial"> · partial</span> : null}
      </td>
      <td
        className={`num ${signClass(t.u)}`}
        data-partial={uPartial}
        title={totalTitle('unrealised P&L', t.uKnown, t.uUnknown)}
      >
        {formatAmount(t.u)}
      </td>
      <td
        className={`num ${signClass(t.r)}`}
        data-partial={rPartial}
        title={`${totalTitle('realised P&L', t.rKnown, t.rUnknown)} (open positions only)`}
      >
        {formatAmount(t.r)}
      </td>
    </tr>
  )
}

const OrderLine = memo(function OrderLine({
  o,
  title,
  unit,
}: {
  o: OrderRow
  title: string | undefined
  unit: PriceUnit
}) {
  return (
    <tr data-market={o.market ?? undefined} title={`Order ${o.id}`}>
      <MarketCell id={o.market} title={title} />
      <td className={o.side === 'buy' ? 'bid-text' : o.side === 'sell' ? 'ask-text' : ''}>{o.side ?? '—'}</td>
      <td className="num">{formatPrice(o.price, unit)}</td>
      <td className="num">
        {formatSize(o.filled ?? 0)}/{formatSize(o.size)}
      </td>
      <td className="ellipsis" title={o.status ?? 'open'}>
        {statusLabel(o.status)}
      </td>
      <td className="row-btn-cell">
        <button
          type="button"
          className="row-btn"
          data-testid="order-alert"
          title={`Alert when this market's order is filled${o.market ? ` (${o.market})` : ''}`}
          aria-label={`Alert when an order in ${title ?? o.market ?? 'any market'} is filled`}
          onClick={() => openAlertForm(prefill({ market: o.market, subject: 'order-filled' }))}
        >
          Alert
        </button>
      </td>
    </tr>
  )
})

const FillLine = memo(function FillLine({
  f,
  title,
  unit,
  showOutcome,
  showFee,
  currency,
}: {
  f: FillRow
  title: string | undefined
  unit: PriceUnit
  showOutcome: boolean
  showFee: boolean
  /** The account's currency (its one balance's), for a fee whose record names none. */
  currency: string | null
}) {
  return (
    <tr data-testid="fill-row" data-outcome={f.outcome?.toUpperCase()} data-fee={f.fee}>
      <td className="num">{formatClock(f.ts)}</td>
      <MarketCell id={f.market} title={title} />
      <td className={f.side === 'buy' ? 'bid-text' : f.side === 'sell' ? 'ask-text' : ''}>{f.side ?? '—'}</td>
      {showOutcome ? (
        <td data-testid="fill-outcome">
          {f.outcome ? (
            <span className={`outcome-mark outcome-${f.outcome}`}>{f.outcome.toUpperCase()}</span>
          ) : (
            '—'
          )}
        </td>
      ) : null}
      <td className="num">{formatPrice(f.price, unit)}</td>
      <td className="num">{formatSize(f.size)}</td>
      {showFee ? (
        <td
          className="num"
          data-testid="fill-fee"
          title={
            f.fee === undefined
              ? 'No fee in this fill’s update'
              : `Fee ${formatMoney(f.fee, currency)}${currency && !hasMoneySymbol(currency) ? ` ${currency}` : ''}`
          }
        >
          {f.fee === undefined ? '—' : formatMoney(f.fee, currency)}
        </td>
      ) : null}
    </tr>
  )
})

/** The reminder ahead of the key's expiry, where the trader looks all day (key settings has the details). */
function ExpiryBanner({ onOpenKeySettings }: { onOpenKeySettings(): void }) {
  const profile = useProfiles(activeProfile)
  const now = useNow(60_000)
  const { state, days } = expiryState(profile?.keyExpiresAt ?? null, now)
  if (state !== 'soon' && state !== 'expired') return null
  return (
    <div
      className={`alert ${state === 'expired' ? 'error' : 'warn'}`}
      data-testid="key-expiry-banner"
      data-state={state}
    >
      {state === 'expired'
        ? `The API key expired on ${profile?.keyExpiresAt}. `
        : `The API key expires ${days === 0 ? 'today' : `in ${days} day${days === 1 ? '' : 's'}`}. `}
      Create a new key in your profile’s security settings and store it here.{' '}
      <button className="link-btn" onClick={onOpenKeySettings}>
        Key settings
      </button>
    </div>
  )
}

function NoKey({ onOpenKeySettings }: { onOpenKeySettings(): void }) {
  const api = useApi()
  const profile = useProfiles(activeProfile)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    // Whether to offer the demo key depends on the active profile.
    if (useProfiles.getState().activeId === null) void useProfiles.getState().load(api)
  }, [api])
  return (
    <div className="cta" data-testid="account-cta">
      <b>No API key for {profile ? `“${profile.name}”` : 'this profile'}</b>
      <p className="muted">
        Orders, fills, positions and the wallet come from the private user channel, which needs an API key.
        Market data keeps flowing without one.
      </p>
      <div className="row-gap">
        <button className="btn primary" onClick={onOpenKeySettings} data-testid="open-key-settings-cta">
          Add API key…
        </button>
        {profile?.demo ? (
          <button
            className="btn"
            disabled={busy}
            data-testid="cta-use-demo-key"
            onClick={() => {
              setBusy(true)
              setError(null)
              void api.useDemoKey().then((r) => {
                setBusy(false)
                if (!r.ok) setError(r.error.message)
                void useProfiles.getState().load(api)
                void refreshStatus(api)
              })
            }}
          >
            {busy ? 'Verifying…' : 'Use demo key'}
          </button>
        ) : null}
      </div>
      {error ? <span className="error-text">{error}</span> : null}
    </div>
  )
}

/** Venue statuses are snake_case words of any length; the column has room for one short word. */
function statusLabel(status: string | null | undefined): string {
  if (!status) return 'open'
  const s = status.toLowerCase()
  if (s.startsWith('partial')) return 'partial'
  if (s === 'canceled' || s === 'cancelled') return 'cancelled'
  return s.replace(/_/g, ' ')
}

export function AccountPane({ onOpenKeySettings }: { onOpenKeySettings(): void }) {
  const api = useApi()
  const hasKey = useMonitor((s) => s.status?.hasKey ?? false)
  const authError = useMonitor((s) => s.status?.authError ?? null)
  const keychainError = useMonitor((s) => s.status?.credentialsError ?? null)
  const account = useMonitor((s) => s.account)
  const user = useMonitor((s) => s.user)
  const unit = usePriceUnit()
  useInterests('account', hasKey ? [{ channel: 'user' }] : [])

  useEffect(() => {
    if (!hasKey) return
    let cancelled = false
    void api.getUserHistory().then((r) => {
      if (!cancelled && r.ok) useMonitor.getState().seedUser(r.value)
    })
    return () => {
      cancelled = true
    }
  }, [api, hasKey])

  const titles = useMarketTitles()
  const title = (id: string | null) => (id === null ? undefined : titles.get(id))
  const orders = useMemo(() => Object.values(account.orders).reverse(), [account.orders])
  const positions = useMemo(() => Object.values(account.positions), [account.positions])
  const balances = useMemo(() => Object.values(account.balances), [account.balances])
  const fills = account.fills.slice(0, 30)
  const showOutcome = fills.some((x) => x.outcome !== undefined)
  const showFee = fills.some((x) => x.fee !== undefined)
  // A fee's currency when its record names none: the account's, when it has one currency only.
  const currencies = new Set(balances.map((b) => b.currency))
  const accountCurrency = currencies.size === 1 ? ([...currencies][0] as string) : null
  const feed = useMemo(() => {
    const rows: UserUpdateView[] = []
    for (let i = user.length - 1; i >= 0 && rows.length < FEED_ROWS; i--) rows.push(user[i] as UserUpdateView)
    return rows
  }, [user])

  return (
    <aside className="account-pane" data-testid="account-pane">
      <div className="pane-toolbar">
        <span className="pane-title">Account</span>
        <button className="link-btn" onClick={onOpenKeySettings} data-testid="open-key-settings">
          Key settings
        </button>
      </div>
      {hasKey ? <ExpiryBanner onOpenKeySettings={onOpenKeySettings} /> : null}
      {[
        { error: authError, testId: 'account-auth-error' },
        { error: keychainError, testId: 'account-keychain-error' },
      ].map(({ error, testId }) =>
        error ? (
          <div className="alert error" data-testid={testId} data-code={error.code} key={testId}>
            <b>{explainError(error).title}</b>
            <ul>
              {explainError(error).steps.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
            <button className="btn" onClick={onOpenKeySettings}>
              Open key settings
            </button>
          </div>
        ) : null,
      )}
      {!hasKey ? (
        // With an unusable keychain the alert above says what to do; a "add a key" prompt would only fail.
        keychainError ? null : (
          <NoKey onOpenKeySettings={onOpenKeySettings} />
        )
      ) : (
        <div className="account-body">
          <div className="balances" data-testid="balances">
            {balances.length === 0 ? (
              <div className="balance-card muted">Wallet: waiting for a balance update…</div>
            ) : (
              balances.map((b) => <BalanceCard key={b.currency} b={b} />)
            )}
          </div>
          <h4>
            Positions <span className="muted">{positions.length}</span>
          </h4>
          <table className="grid-table compact positions-table" data-testid="positions">
            <colgroup>
              <col />
              <col style={{ width: 36 }} />
              <col style={{ width: 40 }} />
              <col style={{ width: 64 }} />
              <col style={{ width: 52 }} />
              <col style={{ width: 44 }} />
            </colgroup>
            <thead>
              <tr>
                <th>Market</th>
                <th className="num">Size</th>
                <th className="num" title="Average price, as the venue sends it">
                  Avg
                </th>
                <th className="num" title="The live mid, else the last trade price">
                  Mark
                </th>
                <th className="num" title="Unrealised P&L: (mark − avg) × size">
                  Unreal.
                </th>
                <th className="num" title="Realised P&L, as the venue sends it">
                  Real.
                </th>
              </tr>
            </thead>
            <tbody>
              {positions.length === 0 ? (
                <tr>
                  <td colSpan={6} className="empty-cell">
                    No positions
                  </td>
                </tr>
              ) : (
                positions.map((p) => <PositionLine key={p.market} p={p} title={title(p.market)} />)
              )}
            </tbody>
            {positions.length > 0 ? (
              <tfoot>
                <PositionsTotal positions={positions} />
              </tfoot>
            ) : null}
          </table>
          {positions.length > 0 && !positions.some((p) => p.avgPrice !== null) ? (
            <p className="pnl-note muted" data-testid="pnl-note">
              The venue sends no cost basis (average price) for these positions, so their P&amp;L cannot be
              computed.
            </p>
          ) : null}
          <h4>
            Open orders <span className="muted">{orders.length}</span>
          </h4>
          <table className="grid-table compact" data-testid="open-orders">
            <colgroup>
              <col />
              <col style={{ width: 36 }} />
              <col style={{ width: 44 }} />
              <col style={{ width: 70 }} />
              <col style={{ width: 64 }} />
              <col style={{ width: 40 }} />
            </colgroup>
            <thead>
              <tr>
                <th>Market</th>
                <th>Side</th>
                <th className="num">Price</th>
                <th className="num">Filled</th>
                <th>Status</th>
                <th>
                  <span className="sr-only">Alert</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.length === 0 ? (
                <tr>
                  <td colSpan={6} className="empty-cell">
                    No open orders
                  </td>
                </tr>
              ) : (
                orders
                  .slice(0, 50)
                  .map((o) => <OrderLine key={o.id} o={o} title={title(o.market)} unit={unit} />)
              )}
            </tbody>
          </table>
          <h4 className="section-head">
            Fills <span className="muted">{account.fills.length}</span>
            <button
              type="button"
              className="link-btn export-btn"
              data-testid="fills-export"
              disabled={account.fills.length === 0}
              title={
                account.fills.length === 0
                  ? 'No fills to export'
                  : `Save the ${account.fills.length} fills held (newest first) as a CSV file`
              }
              onClick={() => downloadCsv(csvFilename('fills', null), fillsCsv(account.fills))}
            >
              Export CSV
            </button>
          </h4>
          <table className="grid-table compact" data-testid="fills">
            <colgroup>
              {/* The market keeps room for a name: the extra VoxFi columns are narrow. */}
              <col style={{ width: 66 }} />
              <col />
              <col style={{ width: 36 }} />
              {showOutcome ? <col style={{ width: 34 }} /> : null}
              <col style={{ width: 42 }} />
              <col style={{ width: 44 }} />
              {showFee ? <col style={{ width: 58 }} /> : null}
            </colgroup>
            <thead>
              <tr>
                <th>Time</th>
                <th>Market</th>
                <th>Side</th>
                {showOutcome ? <th title="The contract filled: YES or NO">Out.</th> : null}
                <th className="num">Price</th>
                <th className="num">Size</th>
                {showFee ? <th className="num">Fee</th> : null}
              </tr>
            </thead>
            <tbody>
              {account.fills.length === 0 ? (
                <tr>
                  <td colSpan={5} className="empty-cell">
                    No fills yet
                  </td>
                </tr>
              ) : (
                fills.map((f) => (
                  <FillLine
                    key={f.key}
                    f={f}
                    title={title(f.market)}
                    unit={unit}
                    showOutcome={showOutcome}
                    showFee={showFee}
                    currency={accountCurrency}
                  />
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      <div className="feed-pane">
        <div className="pane-toolbar">
          <span className="pane-title">Raw user feed</span>
          <span className="muted num">
            {user.length}
            {account.undecoded > 0 ? ` · ${account.undecoded} not interpreted` : ''}
          </span>
        </div>
        <div className="feed" data-testid="user-feed">
          {feed.length === 0 ? (
            <div className="empty-note">
              {hasKey ? 'Waiting for account updates…' : 'No key: no account updates.'}
            </div>
          ) : (
            feed.map((u) => <FeedRow key={u.seq} u={u} />)
          )}
        </div>
      </div>
    </aside>
  )
}
