// Keychain prompts, against a fake keyring backend: an unlock prompt nobody answers times out with a clear
// message, a prompt the user cancelled is told apart from a locked keyring, and probing never writes.
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createKeyringStore,
  KEYRING_TIMEOUT_MS,
  type KeyringBackend,
  type KeyringEntry,
} from '../../../src/main/services/credentials/store'
import { HUMAN_DISMISS_MS } from '../../../src/main/services/credentials/errors'
import type { LogFields } from '../../../src/main/services/base/types'

const DISMISSED = "Couldn't access platform storage: Secret Service: unlock prompt was dismissed"

type Op = 'get' | 'set' | 'delete'
interface Call {
  op: Op
  account: string
  signal: AbortSignal | undefined
}

/** A keyring whose every call is answered by `answer` (a value, a thrown error, or a promise never settled). */
function fakeKeyring(answer: (call: Call) => Promise<unknown>): { backend: KeyringBackend; calls: Call[] } {
  const calls: Call[] = []
  const backend: KeyringBackend = {
    entry(_service, account): KeyringEntry {
      const call = (op: Op, signal: AbortSignal | undefined): Promise<never> => {
        const c = { op, account, signal }
        calls.push(c)
        return answer(c) as Promise<never>
      }
      return {
        getPassword: (signal) => call('get', signal),
        setPassword: (_password, signal) => call('set', signal),
        deleteCredential: (signal) => call('delete', signal),
      }
    },
  }
  return { backend, calls }
}

const never = (): Promise<unknown> => new Promise(() => {})

/** A clock the fake advances by `ms` during each call: how long the "prompt" was on screen. */
function clockedDismissal(ms: number): { now: () => number; answer: () => Promise<unknown> } {
  let t = 0
  return {
    now: () => t,
    answer: async () => {
      t += ms
      throw new Error(DISMISSED)
    },
  }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('keyring prompts', () => {
  it('waits 60 s for an answer by default', () => {
    expect(KEYRING_TIMEOUT_MS).toBe(60_000)
  })

  it('an unlock prompt that never returns fails with keyring_timeout and a clear message, then the store recovers', async () => {
    vi.useFakeTimers()
    let release: (v: string) => void = () => {}
    const { backend, calls } = fakeKeyring((c) =>
      c.op === 'get' && calls.length === 1 ? new Promise((r) => (release = r)) : Promise.resolve('k'),
    )
    const logs: LogFields[] = []
    const store = createKeyringStore({
      backend,
      logger: { info: () => {}, warn: (_m, f) => logs.push(f ?? {}), error: () => {} },
    })
    const pending = store.get('alpha')
    await vi.advanceTimersByTimeAsync(KEYRING_TIMEOUT_MS - 1)
    let settled = false
    void pending.then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const r = await pending
    expect(r.ok).toBe(false)
    expect(!r.ok && r.error.code).toBe('keyring_timeout')
    expect(!r.ok && r.error.message).toMatch(/did not answer within 60 s/)
    expect(!r.ok && r.error.message).toMatch(/prompt may be waiting on screen/)
    // The native call is asked to stop.
    expect(calls[0]?.signal?.aborted).toBe(true)
    expect(logs).toEqual([expect.objectContaining({ op: 'get', code: 'keyring_timeout' })])

    // The next call does not raise a second prompt beside the unanswered one: it waits for it...
    const next = store.get('alpha')
    await vi.advanceTimersByTimeAsync(10)
    expect(calls).toHaveLength(1)
    // ...and runs once that prompt is answered.
    release('late')
    await vi.advanceTimersByTimeAsync(0)
    expect(await next).toEqual({ ok: true, value: 'k' })
    expect(calls).toHaveLength(2)
  })

  it('a call queued behind an unanswered prompt times out too, never reaching the keyring', async () => {
    const { backend, calls } = fakeKeyring(never)
    const store = createKeyringStore({ backend, timeoutMs: 40 })
    const first = store.set('alpha', 'sk-secret-1')
    const second = store.delete('alpha')
    const [a, b] = await Promise.all([first, second])
    expect(!a.ok && a.error.code).toBe('keyring_timeout')
    expect(!b.ok && b.error.code).toBe('keyring_timeout')
    expect(!b.ok && b.error.message).toMatch(/earlier keyring request is still waiting/)
    expect(calls.map((c) => c.op)).toEqual(['set'])
    expect(JSON.stringify([a, b])).not.toContain('sk-secret-1')
  })

  it('a prompt the user cancelled is keyring_cancelled', async () => {
    const { now, answer } = clockedDismissal(HUMAN_DISMISS_MS + 2500)
    const { backend } = fakeKeyring(answer)
    const store = createKeyringStore({ backend, canPrompt: true, now })
    const r = await store.set('alpha', 'sk-secret-2')
    expect(!r.ok && r.error.code).toBe('keyring_cancelled')
    expect(!r.ok && r.error.message).toMatch(/^The keyring prompt was cancelled/)
    expect(JSON.stringify(r)).not.toContain('sk-secret-2')
  })

  it('a prompt dismissed at once (no prompter could show it) is keyring_locked, not cancelled', async () => {
    const { now, answer } = clockedDismissal(30)
    const { backend } = fakeKeyring(answer)
    const store = createKeyringStore({ backend, canPrompt: true, now })
    const r = await store.get('alpha')
    expect(!r.ok && r.error.code).toBe('keyring_locked')
    expect(!r.ok && r.error.message).toMatch(/^The system keyring is locked/)
  })

  it('without a display no prompt can be shown, so a dismissal is keyring_locked however long it took', async () => {
    const { now, answer } = clockedDismissal(HUMAN_DISMISS_MS * 5)
    const { backend } = fakeKeyring(answer)
    const store = createKeyringStore({ backend, canPrompt: false, now })
    const r = await store.get('alpha')
    expect(!r.ok && r.error.code).toBe('keyring_locked')
  })

  it("macOS' own 'User canceled' is keyring_cancelled, and its 'interaction not allowed' keyring_locked", async () => {
    const canceled = createKeyringStore({
      backend: fakeKeyring(async () => {
        throw new Error('Platform secure storage failure: User canceled the operation.')
      }).backend,
    })
    const r1 = await canceled.get('alpha')
    expect(!r1.ok && r1.error.code).toBe('keyring_cancelled')
    const headless = createKeyringStore({
      backend: fakeKeyring(async () => {
        throw new Error('Platform secure storage failure: User interaction is not allowed.')
      }).backend,
    })
    const r2 = await headless.get('alpha')
    expect(!r2.ok && r2.error.code).toBe('keyring_locked')
  })

  it('a locked keyring (the object is locked, no prompt involved) stays keyring_locked', async () => {
    const store = createKeyringStore({
      backend: fakeKeyring(async () => {
        throw new Error(
          'zbus error: org.freedesktop.Secret.Error.IsLocked: Cannot get secret of a locked object',
        )
      }).backend,
      canPrompt: true,
    })
    const r = await store.delete('alpha')
    expect(!r.ok && r.error.code).toBe('keyring_locked')
  })

  it('probing only reads: it never writes or deletes an entry', async () => {
    const { backend, calls } = fakeKeyring(async () => null)
    const store = createKeyringStore({ backend })
    expect(await store.probe()).toEqual({ ok: true, value: undefined })
    expect(calls.map((c) => c.op)).toEqual(['get'])
    expect(calls[0]?.account).toBe('probe')
  })

  it('probing reports an unreachable keyring', async () => {
    const store = createKeyringStore({
      backend: {
        entry() {
          throw new Error(
            'Platform failure: DBus error: Failed to connect to socket /x: No such file or directory',
          )
        },
      },
    })
    const r = await store.probe()
    expect(!r.ok && r.error.code).toBe('keyring_unavailable')
  })

  it('probing a keyring whose lookups hang times out instead of hanging the start', async () => {
    const store = createKeyringStore({ backend: fakeKeyring(never).backend, timeoutMs: 20 })
    const r = await store.probe()
    expect(!r.ok && r.error.code).toBe('keyring_timeout')
  })
})
