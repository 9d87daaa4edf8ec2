// An event's resolution rules, one click from the market header or the event matrix: the venue's text as sent
// (plain text, never markup), with what decides when it resolves: category, tags, status and the times. It is
// put on the document's body (as the context menu is): a dock pane is the containing block of anything fixed
// inside it, so a dialog left in the pane would be cut to the pane.
import { createPortal } from 'react-dom'
import type { EventSummary } from '../../../shared/model'
import { formatDateTime } from '../../lib/format'
import { Dialog } from '../../ui/Dialog'
import { TimeLeft } from './EventMeta'

export function RulesDialog({ event, onClose }: { event: EventSummary; onClose(): void }) {
  const rules = event.rules?.trim() ?? ''
  const tags = event.tags ?? []
  const facts: Array<[string, string]> = []
  if (event.category) facts.push(['Category', event.category])
  if (event.status) facts.push(['Status', event.status])
  if (event.startsAt !== undefined) facts.push(['Opens', formatDateTime(event.startsAt)])
  if (event.finishedAt !== undefined) facts.push(['Finished', formatDateTime(event.finishedAt)])
  return createPortal(
    <Dialog title={`Rules · ${event.title}`} testId="rules-dialog" className="rules-dialog" onClose={onClose}>
      <dl className="rules-facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd data-testid={`rules-${k.toLowerCase()}`}>{v}</dd>
          </div>
        ))}
        <div>
          <dt>Resolves</dt>
          <dd data-testid="rules-resolves">
            {event.resolvesAt === undefined ? (
              <span className="muted">not given</span>
            ) : (
              <>
                {formatDateTime(event.resolvesAt)} <span className="muted">(local)</span>{' '}
                <TimeLeft event={event} />
              </>
            )}
          </dd>
        </div>
        {tags.length > 0 ? (
          <div>
            <dt>Tags</dt>
            <dd data-testid="rules-tags">
              {tags.map((t) => (
                <span key={t} className="chip">
                  {t}
                </span>
              ))}
            </dd>
          </div>
        ) : null}
      </dl>
      {rules ? (
        <div className="rules-text" data-testid="rules-text" tabIndex={0}>
          {rules}
        </div>
      ) : (
        <p className="muted" data-testid="rules-missing">
          The venue sent no rules for this event.
        </p>
      )}
      <div className="modal-foot">
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>,
    document.body,
  )
}
