// API key state and the rules of spec §5 / DESIGN §3.1, shared by REST and the WebSocket user channel.
import { isIPv4 } from 'node:net'
import { PERMISSIONS, type Permission, type SimKeyConfig } from './config'

export interface KeyRecord {
  value: string
  name: string
  /** ms since epoch; null = never expires. */
  expiresAt: number | null
  enabled: boolean
  revoked: boolean
  /** Normalised; empty = every address. */
  allowedIps: string[]
  /** Never empty: an empty or missing list grants all five (spec §2.1). */
  permissions: Permission[]
}

export type KeyPatch = Partial<
  Pick<SimKeyConfig, 'enabled' | 'revoked' | 'expiresAt' | 'allowedIps' | 'permissions'>
>

export type KeyCheck = { ok: true; key: KeyRecord } | { ok: false; error: 'unauthorized' | 'ip not allowed' }

/** `::ffff:127.0.0.2` compares as `127.0.0.2`; IPv6 is compared lower-case. */
export function normaliseIp(ip: string): string {
  const trimmed = ip.trim().toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(trimmed)
  if (mapped?.[1] !== undefined && isIPv4(mapped[1])) return mapped[1]
  return trimmed
}

function toRecord(k: SimKeyConfig): KeyRecord {
  return {
    value: k.value,
    name: k.name ?? 'key',
    expiresAt: k.expiresAt === undefined ? null : Date.parse(k.expiresAt),
    enabled: k.enabled ?? true,
    revoked: k.revoked ?? false,
    allowedIps: (k.allowedIps ?? []).map(normaliseIp),
    permissions:
      k.permissions !== undefined && k.permissions.length > 0 ? [...k.permissions] : [...PERMISSIONS],
  }
}

export class KeyStore {
  private readonly keys = new Map<string, KeyRecord>()

  constructor(initial: SimKeyConfig[]) {
    for (const k of initial) this.add(k)
  }

  add(k: SimKeyConfig): void {
    this.keys.set(k.value, toRecord(k))
  }

  /** Change a key at runtime (revoke, disable, expire, …). Returns false for an unknown key. */
  update(value: string, patch: KeyPatch): boolean {
    const cur = this.keys.get(value)
    if (cur === undefined) return false
    const next = toRecord({
      value,
      name: cur.name,
      enabled: patch.enabled ?? cur.enabled,
      revoked: patch.revoked ?? cur.revoked,
      expiresAt:
        patch.expiresAt ?? (cur.expiresAt === null ? undefined : new Date(cur.expiresAt).toISOString()),
      allowedIps: patch.allowedIps ?? cur.allowedIps,
      permissions: patch.permissions ?? cur.permissions,
    })
    this.keys.set(value, next)
    return true
  }

  get(value: string): KeyRecord | undefined {
    return this.keys.get(value)
  }

  /** Key state first (401), then the caller's address (403). */
  check(value: string | undefined, callerIp: string | undefined, now = Date.now()): KeyCheck {
    if (value === undefined || value.length === 0) return { ok: false, error: 'unauthorized' }
    const key = this.keys.get(value)
    if (key === undefined || !key.enabled || key.revoked) return { ok: false, error: 'unauthorized' }
    if (key.expiresAt !== null && !(key.expiresAt > now)) return { ok: false, error: 'unauthorized' }
    if (key.allowedIps.length > 0) {
      const ip = callerIp === undefined ? '' : normaliseIp(callerIp)
      if (!key.allowedIps.includes(ip)) return { ok: false, error: 'ip not allowed' }
    }
    return { ok: true, key }
  }
}
