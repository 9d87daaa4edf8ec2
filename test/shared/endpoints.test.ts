import { describe, expect, it } from 'vitest'
import { validateEndpoints } from '../../src/shared/endpoints'

describe('validateEndpoints', () => {
  it.each([
    [
      'https://api.example.com/v1/',
      'wss://api.example.com/ws/',
      'https://api.example.com/v1',
      'wss://api.example.com/ws',
    ],
    [
      'http://127.0.0.1:8080/v1',
      'ws://127.0.0.1:8080/ws',
      'http://127.0.0.1:8080/v1',
      'ws://127.0.0.1:8080/ws',
    ],
    ['  https://API.Example.com//  ', 'wss://x.example', 'https://api.example.com', 'wss://x.example'],
    ['https://[::1]:9000/api/v2///', 'ws://[::1]:9000/', 'https://[::1]:9000/api/v2', 'ws://[::1]:9000'],
    ['http://localhost:1/v1', 'ws://127.8.9.10:2', 'http://localhost:1/v1', 'ws://127.8.9.10:2'],
  ])('accepts and normalises %s + %s', (base, ws, expBase, expWs) => {
    expect(validateEndpoints(base, ws)).toEqual({ ok: true, value: { baseUrl: expBase, wsUrl: expWs } })
  })

  it.each([
    ['', 'wss://h/ws', /REST base URL is empty/],
    ['not a url', 'wss://h/ws', /REST base URL is not a valid URL/],
    ['ftp://h/v1', 'wss://h/ws', /REST base URL must start with http or https/],
    ['ws://h/v1', 'wss://h/ws', /REST base URL must start with http/],
    ['https://h/v1', 'https://h/ws', /WebSocket URL must start with ws or wss/],
    ['https://h/v1', 'file:///etc/passwd', /WebSocket URL must start with ws/],
    ['javascript:alert(1)', 'wss://h/ws', /REST base URL must start/],
    ['https://user:pass@h/v1', 'wss://h/ws', /must not contain a user name or password/],
    ['https://user@h/v1', 'wss://h/ws', /must not contain a user name or password/],
    ['https://h/v1', 'wss://:secret@h/ws', /WebSocket URL must not contain a user name or password/],
    ['https://h/v1?apiKey=abc', 'wss://h/ws', /must not contain a query string/],
    ['https://h/v1?', 'wss://h/ws', /must not contain a query string/],
    ['https://h/v1', 'wss://h/ws#frag', /must not contain a fragment/],
    [`https://h/${'a'.repeat(2100)}`, 'wss://h/ws', /longer than/],
    ['http://remote.example/v1', 'wss://h/ws', /REST base URL must use https:\/\/: unencrypted http/],
    ['https://h/v1', 'ws://remote.example', /WebSocket URL must use wss:\/\/: unencrypted ws/],
    ['https://h/v1', 'ws://128.0.0.1', /WebSocket URL must use wss/],
    ['https://h/v1', 'ws://127.0.0.1.example.com', /WebSocket URL must use wss/],
  ])('refuses %s + %s', (base, ws, message) => {
    const r = validateEndpoints(base, ws)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_argument')
      expect(r.error.message).toMatch(message)
    }
  })

  it('names the field at fault, so a form marks it without parsing the message', () => {
    const r = validateEndpoints('https://h/v1', 'ws://remote.example')
    expect(!r.ok && r.error.field).toBe('wsUrl')
    const b = validateEndpoints('ftp://h', 'ws://remote.example')
    expect(!b.ok && b.error.field).toBe('baseUrl')
  })

  it('never echoes a password from a URL in its error message', () => {
    const r = validateEndpoints('https://me:hunter2-secret@h/v1', 'wss://h/ws')
    expect(!r.ok && r.error.message).not.toContain('hunter2-secret')
  })

  it('refuses non-string input instead of throwing', () => {
    expect(validateEndpoints(undefined as unknown as string, 'wss://h').ok).toBe(false)
    expect(validateEndpoints('https://h', 42 as unknown as string).ok).toBe(false)
  })
})
