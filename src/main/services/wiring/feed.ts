// The feed: the venue's decoders, the subscriptions, what a venue's close means, the duplicate filter, and the
// connection whose life (lifecycle.ts) every room follows.
import { AdapterFiles } from '../feed/adapter-files'
import { ConnectionManager } from '../feed/connection'
import { DuplicateFrames } from '../feed/duplicate-frames'
import { createRegistry, type RegistryChange } from '../feed/registry'
import { VenueCloses } from '../feed/venue-close'
import { AUTO, VenueDecoder } from '../feed/venue-decoder'
import { folderBesideSettings } from '../options'
import { activeProfileOf } from '../settings/profiles'
import type { Engine, Wiring } from './engine'
import { connectionHooks } from './lifecycle'

type FeedParts = 'venue' | 'replayVenue' | 'registry' | 'closes' | 'duplicates' | 'connection'

export function wireFeed(w: Wiring): Pick<Engine, FeedParts> {
  const { options, log, now, secrets, parts: p } = w
  const adapterFiles = new AdapterFiles(folderBesideSettings(options, options.adaptersDir, 'adapters'))
  const decoderFor = (selection: () => string): VenueDecoder =>
    new VenueDecoder({
      files: adapterFiles,
      log,
      selection,
      notice: (text) => p.status.notice(text),
      changed: w.statusChanged,
    })
  const registry = createRegistry({
    logger: log,
    send: (message) => p.connection.send(message),
    isOpen: () => p.connection.isOpen(),
    getUserKey: () => p.keys.stored(p.connection.profile),
    onChange: (change) => subscriptionsChanged(p, change, now()),
    onAuthChange: (error) => {
      if (error) p.incidents.record('auth', `${error.code}: ${error.message}`)
      w.statusChanged()
    },
    now,
  })
  const closes = new VenueCloses({
    // The close's reason is the venue's text, shown in windows: scrubbed like any other.
    setAuthError: (error) => registry.setAuthError({ ...error, message: secrets.redact(error.message) }),
    refusal: () => registry.venueRefused(),
    incident: (kind, detail) => p.incidents.record(kind, detail),
    refused: (frame) => p.fanout.inspector(frame),
    recordRefused: (sent, at, detail) => p.inspector.recordRefused(sent, at, detail),
    scrub: (text) => secrets.redact(text),
    now,
  })
  const connection = new ConnectionManager(
    {
      log,
      now,
      status: p.status,
      incidents: p.incidents,
      demo: w.demo,
      ...(options.stream !== undefined ? { stream: options.stream } : {}),
      ...(options.restTimeoutMs !== undefined ? { restTimeoutMs: options.restTimeoutMs } : {}),
      scrub: (text) => secrets.redact(text),
      authError: () => registry.authError(),
      hooks: connectionHooks(w),
    },
    activeProfileOf(w.settings),
  )
  return {
    venue: decoderFor(() => p.connection.profile.adapter ?? AUTO),
    // A replay reads its frames with the recorded profile's adapter, not the live one's.
    replayVenue: decoderFor(() => w.replayAdapter.name ?? AUTO),
    registry,
    closes,
    duplicates: new DuplicateFrames(),
    connection,
  }
}

/**
 * Subscriptions changed: market data drops what nobody watches, the account and the listing catch up, and the
 * copy filter learns whether a second channel (an event's) can bring copies.
 */
function subscriptionsChanged(p: Engine, change: RegistryChange, at: number): void {
  p.duplicates.eventChannels(p.registry.desired('event').size > 0, at)
  if (change.user) p.accountRest.refresh()
  if (p.data.subscriptionsChanged(change).needListing) {
    void p.catalog.list(false).then(() => p.clients.refreshMarkets())
  }
}
