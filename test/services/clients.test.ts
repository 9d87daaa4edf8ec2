// ClientHub: each window's calls are validated, run against the services and never throw; disposing releases
// the window's interests and fan-out slot. Real registry, fan-out, stores and catalog; the key, profile,
// connection and resync services are stubs with only what the tested calls use.
import { WorkspaceService } from '../../src/main/services/settings/workspaces'
import { defaultSettings } from '../../src/main/services/settings/store'
import { parseSettings } from '../../src/main/services/settings/schema'
import { afterEach, describe, expect, it } from 'vitest'
import type { AlertService } from '../../src/main/services/alerts/service'
import type { Interest, ViewBatch } from '../../src/shared/ipc'
import { BookStore } from '../../src/main/services/market/books'
import { ClientHub } from '../../src/main/services/clients'
import type { ConnectionManager } from '../../src/main/services/feed/connection'
import { Fanout } from '../../src/main/services/fanout/fanout'
import { IncidentLog } from '../../src/main/services/health/incidents'
import { createInspector } from '../../src/main/services/health/inspector'
import { InterestIndex } from '../../src/main/services/market/interests'
import type { KeyManager } from '../../src/main/services/credentials/keys'
import type { ProfileService } from '../../src/main/services/settings/profiles'
import type { ResyncTracker } from '../../src/main/services/market/resync'
import { StatusTracker } from '../../src/main/services/health/status'
import { TapeStore } from '../../src/main/services/market/tapes'
import { UserFeed } from '../../src/main/services/account/user-feed'
import { captureLogger } from './helpers'
import { createCatalog, fakeRest, listing, profile, recordingRegistry } from './fakes'

const closers: Array<() => void> = []
afterEach(() => {
  for (const c of closers.splice(0)) c()
})

function setup() {
  const log = captureLogger()
  const f = fakeRest(listing({ e1: ['m1', 'm2'] }))
  const { catalog } = createCatalog(f.rest)
  const { registry, sent } = recordingRegistry()
  const interests = new InterestIndex(registry, catalog)
  const books = new BookStore()
  const tapes = new TapeStore()
  const userFeed = new UserFeed()
  const inspector = createInspector()
  const incidents = new IncidentLog(Date.now, () => undefined)
  const status = new StatusTracker(
    {
      profileId: () => 'p-1',
      connectionState: () => 'live',
      stream: () => undefined,
      authError: () => null,
      rateLimit: () => null,
      counters: () => inspector.counters(),
      unavailable: () => null,
    },
    incidents,
    () => undefined,
  )
  const fanout = new Fanout({
    provider: {
      bookView: (m, d) => books.bookView(m, d),
      ticker: (m) => books.ticker(m),
      status: () => status.status(),
    },
    logger: log.logger,
  })
  closers.push(() => {
    status.close()
    fanout.close()
    registry.close()
  })
  const needs: Array<[string, string]> = []
  const resync: Pick<ResyncTracker, 'need'> = { need: (m, reason) => void needs.push([m, reason]) }
  let reconnects = 0
  const connection: Pick<ConnectionManager, 'reconnectNow' | 'profile'> = {
    reconnectNow: () => {
      reconnects += 1
    },
    profile: profile('p-1'),
  }
  const keys: Pick<KeyManager, 'refreshHasKey' | 'info'> = {
    refreshHasKey: async () => {
      throw new TypeError('keychain said something with key sk-should-not-leak')
    },
    info: (p) => ({ profileId: p.id, hasKey: false, label: null, expiresAt: null }),
  }
  const profiles: Pick<ProfileService, 'list'> = {
    list: () => ({ profiles: [profile('p-1')], activeId: 'p-1' }),
  }
  const alerts: Pick<AlertService, 'view'> = {
    view: () => ({ rules: [], history: [], unread: 0, paused: false, keepRunning: 'auto' }),
  }
  // Settings in memory, checked as the real store checks an update.
  let current = defaultSettings()
  const workspaces = new WorkspaceService({
    settings: {
      get: () => current,
      update: async (mutate) => {
        const r = parseSettings(mutate(current))
        if (r.ok) current = r.value
        return r
      },
    },
    now: () => 1_700_000_000_000,
    changed: () => fanout.workspaceChanged(),
    priceUnitChanged: () => {},
  })
  let closed = false
  const hub = new ClientHub({
    log: log.logger,
    fanout,
    registry,
    interests,
    catalog,
    books,
    tapes,
    userFeed,
    inspector,
    status,
    // Stubs: the calls under test use only the members picked above.
    keys: keys as KeyManager,
    profiles: profiles as ProfileService,
    connection: connection as ConnectionManager,
    resync: resync as ResyncTracker,
    alerts: alerts as AlertService,
    workspaces,
    isClosed: () => closed,
  })
  const attach = (label = 'w') => {
    const batches: ViewBatch[] = []
    const client = hub.attach({ label, sink: (b) => batches.push(b) })
    return { client, batches }
  }
  return {
    hub,
    attach,
    registry,
    sent,
    fanout,
    inspector,
    books,
    catalog,
    needs,
    log,
    reconnects: () => reconnects,
    close: () => (closed = true),
  }
}

describe('ClientHub', () => {
  it('setInterests reaches the registry and the fan-out; dispose releases both', async () => {
    const s = setup()
    const { client } = s.attach()
    expect(s.fanout.hasClient(client.id)).toBe(true)
    expect((await client.setInterests([{ channel: 'market', id: 'm9', filter: 'all' }])).ok).toBe(true)
    expect([...s.registry.desired('market').keys()]).toEqual(['m9'])
    client.dispose()
    client.dispose()
    expect(s.registry.desired('market').size).toBe(0)
    expect(s.fanout.hasClient(client.id)).toBe(false)
    const after = await client.getStatus()
    expect(!after.ok && after.error.message).toMatch(/no longer attached/)
  })

  it('invalid arguments are refused before anything runs', async () => {
    const s = setup()
    const { client } = s.attach()
    const bad = [{ channel: 'market', id: '', filter: 'all' }] as unknown as Interest[]
    const r = await client.setInterests(bad)
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    expect(s.registry.desired('market').size).toBe(0)
    const d = await client.setBookDepth(0)
    expect(!d.ok && d.error.code).toBe('invalid_argument')
  })

  it('a call that throws becomes a generic internal error; the log gets the error name only', async () => {
    const s = setup()
    const { client } = s.attach()
    const r = await client.getKeyInfo()
    expect(!r.ok && r.error.code).toBe('internal')
    expect(!r.ok && r.error.message).not.toContain('sk-should-not-leak')
    expect(s.log.lines.some((l) => l.includes('call failed') && l.includes('TypeError'))).toBe(true)
    expect(s.log.lines.join('\n')).not.toContain('sk-should-not-leak')
  })

  it('the inspector is on while any attached window has it on', async () => {
    const s = setup()
    const a = s.attach('a').client
    const b = s.attach('b').client
    await a.setInspector(true)
    await b.setInspector(true)
    expect(s.inspector.enabled()).toBe(true)
    await a.setInspector(false)
    expect(s.inspector.enabled()).toBe(true)
    b.dispose()
    expect(s.inspector.enabled()).toBe(false)
  })

  it('resync: refused for a market nobody watches; otherwise the book is dropped and a resync requested', async () => {
    const s = setup()
    const { client } = s.attach()
    const r = await client.resync('m1')
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    await client.setInterests([{ channel: 'market', id: 'm1', filter: 'all' }])
    s.books.apply(
      { kind: 'book', market: 'm1', snapshot: true, bids: [[0.4, 1]], asks: [[0.6, 1]], seq: 1 },
      1,
    )
    expect((await client.resync('m1')).ok).toBe(true)
    expect(s.books.has('m1')).toBe(false)
    expect(s.needs).toEqual([['m1', 'requested']])
  })

  it('refreshMarkets gives event windows the markets of a listing loaded later', async () => {
    const s = setup()
    const { client, batches } = s.attach()
    await client.setInterests([{ channel: 'event', id: 'e1', filter: 'all' }])
    await s.catalog.list(false)
    s.hub.refreshMarkets()
    s.books.apply(
      { kind: 'book', market: 'm2', snapshot: true, bids: [[0.4, 1]], asks: [[0.6, 1]], seq: 1 },
      1,
    )
    s.fanout.bookChanged('m2')
    s.fanout.flush()
    expect(batches.flatMap((b) => b.books ?? []).map((v) => v.market)).toContain('m2')
  })

  it('reconnectNow and listProfiles go to their services', async () => {
    const s = setup()
    const { client } = s.attach()
    await client.reconnectNow()
    expect(s.reconnects()).toBe(1)
    const l = await client.listProfiles()
    expect(l.ok && l.value.activeId).toBe('p-1')
  })

  it('a closed engine refuses new windows, and closeAll() detaches the existing ones', async () => {
    const s = setup()
    const { client } = s.attach()
    s.hub.closeAll()
    const r = await client.getStatus()
    expect(!r.ok && r.error.message).toMatch(/no longer attached/)
    s.close()
    expect(() => s.attach()).toThrow(/closed/)
  })
})
