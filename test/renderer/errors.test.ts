import { describe, expect, it } from 'vitest'
import { expiryState, explainError } from '../../src/renderer/lib/errors'
import { endpointErrors as validateEndpoints } from '../../src/shared/endpoints'

const NOW = Date.parse('2026-11-22T12:00:00')

describe('key expiry reminder', () => {
  it('is silent without a date and far from it', () => {
    expect(expiryState(null, NOW).state).toBe('none')
    expect(expiryState('not a date', NOW).state).toBe('none')
    expect(expiryState('2027-01-01', NOW).state).toBe('ok')
  })

  it('warns within 7 days and after expiry', () => {
    expect(expiryState('2026-11-25', NOW)).toEqual({ state: 'soon', days: 3 })
    expect(expiryState('2026-11-22', NOW)).toEqual({ state: 'soon', days: 0 })
    expect(expiryState('2026-11-21', NOW).state).toBe('expired')
  })
})

describe('error explanations', () => {
  it('tells what to check for each key problem', () => {
    expect(explainError({ code: 'unauthorized', message: '' }).steps.join(' ')).toContain('security settings')
    const ip = explainError({ code: 'ip_not_allowed', message: '' }).steps.join(' ')
    expect(ip).toContain('create a new key')
    expect(ip).toContain('revoke the old key')
    for (const code of ['keyring_unavailable', 'keyring_locked', 'keyring_denied'] as const)
      expect(explainError({ code, message: '' }).title).toMatch(/keychain/)
    expect(explainError({ code: 'rate_limited', message: '', retryAfterMs: 2_500 }).steps[0]).toContain('3 s')
  })
})

describe('profile endpoint validation', () => {
  it('accepts https/wss and local http/ws', () => {
    expect(validateEndpoints('https://api.example.com/v1', 'wss://api.example.com/ws')).toEqual({})
    expect(validateEndpoints('http://127.0.0.1:8080/v1', 'ws://localhost:8080/ws')).toEqual({})
  })

  it('rejects other schemes, plain text to remote hosts and garbage', () => {
    const r = validateEndpoints('ftp://x', 'https://x')
    expect(r.baseUrl).toContain('https://')
    expect(r.wsUrl).toContain('wss://')
    expect(validateEndpoints('http://api.example.com/v1', 'ws://api.example.com/ws')).toEqual({
      baseUrl: expect.stringContaining('localhost'),
      wsUrl: expect.stringContaining('localhost'),
    })
    expect(validateEndpoints('nope', '').baseUrl).toMatch(/not a valid URL/)
  })
})
