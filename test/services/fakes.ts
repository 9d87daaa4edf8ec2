// Small typed fakes shared by the service tests: profiles, a REST client whose listing the test controls, an
// events catalog over it, and a registry that records what it sends.
import type { ApiError, EventSummary, Profile, Result } from '../../src/shared/model'
import type { ClientMessage } from '../../src/shared/protocol'
import { EventsCatalog, type CatalogDeps } from '../../src/main/services/market/catalog'
import { createRegistry, type SubscriptionRegistry } from '../../src/main/services/feed/registry'
import type { RestClient } from '../../src/main/services/feed/rest'
import type { Logger } from '../../src/main/services/base/types'
import { captureLogger } from './helpers'

export function profile(id = 'p-1', patch: Partial<Profile> = {}): Profile {
  return {
    id,
    name: id,
    baseUrl: 'http://127.0.0.1:1/v1',
    wsUrl: 'ws://127.0.0.1:1/ws',
    demo: false,
    keyLabel: null,
    keyExpiresAt: null,
    ...patch,
  }
}

export function listing(spec: Record<string, readonly string[]>): EventSummary[] {
  return Object.entries(spec).map(([id, markets]) => ({
    id,
    title: `event ${id}`,
    markets: markets.map((m) => ({ id: m, title: `market ${m}` })),
  }))
}

/** A deferred result, for requests the test answers when it wants. */
export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve: (value: T) => void = () => undefined
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

export interface FakeRest {
  rest: RestClient
  /** Keys each listEvents call was made with. */
  calls: string[]
  /** What the next listEvents calls answer (a function may hold the answer back). */
  answer: (key: string) => Result<EventSummary[]> | Promise<Result<EventSummary[]>>
  verify: (key: string) => Result<void> | Promise<Result<void>>
  verifyCalls: string[]
}

/** Only what the services call; the rest of RestClient is not needed by them. */
export function fakeRest(events: EventSummary[] = []): FakeRest {
  const fake: FakeRest = {
    calls: [],
    verifyCalls: [],
    answer: () => ({ ok: true, value: events }),
    verify: () => ({ ok: true, value: undefined }),
    rest: {
      listEvents: async (key) => {
        fake.calls.push(key)
        return fake.answer(key)
      },
      get: async (path) => ({
        ok: false,
        error: { code: 'not_found', status: 404, message: `no ${path} in this fake` },
      }),
      send: async () => ({
        ok: false,
        error: { code: 'unavailable', message: 'no trading in this fake' },
        sent: 'no',
      }),
      verifyKey: async (key) => {
        fake.verifyCalls.push(key)
        return fake.verify(key)
      },
      rateLimit: () => null,
    },
  }
  return fake
}

export interface CatalogWorld {
  now: number
  profile: Profile
  rest: RestClient | null
  unavailable: ApiError | null
  key: string | null
  storedKey: string | null
  credentialsError: ApiError | null
  loaded: number
  refused: ApiError[]
  failed: ApiError[]
}

export function createCatalog(
  rest: RestClient | null,
  patch: Partial<CatalogWorld> = {},
): { catalog: EventsCatalog; world: CatalogWorld } {
  const world: CatalogWorld = {
    now: 1_000,
    profile: profile(),
    rest,
    unavailable: null,
    key: 'key-abcdef-0123456789',
    storedKey: 'key-abcdef-0123456789',
    credentialsError: null,
    loaded: 0,
    refused: [],
    failed: [],
    ...patch,
  }
  const deps: CatalogDeps = {
    now: () => world.now,
    cacheMs: 30_000,
    current: () => ({ profile: world.profile, rest: world.rest, unavailable: world.unavailable }),
    listingKey: async () => world.key,
    credentialsError: () => world.credentialsError,
    isStoredKey: async (_p, key) => key === world.storedKey,
    onLoaded: () => {
      world.loaded += 1
    },
    onKeyRefused: (e) => {
      world.refused.push(e)
    },
    onFailed: (e) => {
      world.failed.push(e)
    },
  }
  return { catalog: new EventsCatalog(deps), world }
}

export interface RecordingRegistry {
  registry: SubscriptionRegistry
  sent: ClientMessage[]
}

/** A registry on an always-open socket that flushes at once and records every message. */
export function recordingRegistry(logger: Logger = captureLogger().logger): RecordingRegistry {
  const sent: ClientMessage[] = []
  const registry = createRegistry({
    logger,
    send: (m) => {
      sent.push(m)
      return true
    },
    isOpen: () => true,
    getUserKey: async () => null,
    schedule: (fn) => fn(),
  })
  return { registry, sent }
}
