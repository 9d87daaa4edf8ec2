// Shared pieces of the browser-host tests: a fake renderer build, a capturing logger, raw HTTP and WebSocket
// clients that can send what a browser never would, and a bounded poll.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import type { Logger } from '../../src/main/services/base/types'

/** A page's WebSocket: the `ws` client sends no Origin by itself, a browser always sends the page's. */
export class PageSocket extends WebSocket {
  constructor(url: string) {
    super(url, { origin: `http://${new URL(url).host}` })
  }
}

export interface RendererFixture {
  /** The directory to serve. */
  root: string
  /** A file beside root that must never be reachable. */
  secretText: string
  cleanup(): void
}

export function rendererFixture(): RendererFixture {
  const base = mkdtempSync(join(tmpdir(), 'tm-web-'))
  const root = join(base, 'renderer')
  mkdirSync(join(root, 'assets'), { recursive: true })
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><title>fixture</title><script src="./assets/app.js"></script>',
  )
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log("fixture")')
  writeFileSync(join(root, 'assets', 'style.css'), 'body{}')
  const secretText = 'SECRET-OUTSIDE-ROOT'
  writeFileSync(join(base, 'secret.txt'), secretText)
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'))
  return { root, secretText, cleanup: () => rmSync(base, { recursive: true, force: true }) }
}

export interface CapturedLogger extends Logger {
  lines: string[]
}

export function captureLogger(): CapturedLogger {
  const lines: string[] = []
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`)
  }
  return { lines, info: push('info'), warn: push('warn'), error: push('error') }
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** An HTTP GET with the path sent verbatim (fetch would normalise '..' away before the server sees it). */
export function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

export type UpgradeOutcome = { open: true; ws: WebSocket } | { open: false; status: number; body: string }

/** Tries a bridge connection with exactly the given headers; reports the refusal status instead of throwing. */
export function tryBridge(url: string, headers: Record<string, string>): Promise<UpgradeOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.once('open', () => resolve({ open: true, ws }))
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ open: false, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      )
      res.on('error', () => resolve({ open: false, status: res.statusCode ?? 0, body: '' }))
    })
    ws.once('error', (error) => reject(error))
  })
}

/** A raw bridge socket that records every frame the host sends and can await one call's reply. */
export interface RawBridge {
  ws: WebSocket
  frames: unknown[]
  texts: string[]
  call(
    method: string,
    args?: unknown[],
  ): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>
  /** Sends any text and waits for the next non-batch frame. */
  sendRaw(text: string | Buffer): Promise<Record<string, unknown>>
  closed: Promise<number>
}

export async function openBridge(
  port: number,
  token: string,
  origin = `http://127.0.0.1:${port}`,
): Promise<RawBridge> {
  const outcome = await tryBridge(`ws://127.0.0.1:${port}/bridge?token=${token}`, { Origin: origin })
  if (!outcome.open) throw new Error(`bridge refused: ${outcome.status}`)
  const ws = outcome.ws
  const frames: unknown[] = []
  const texts: string[] = []
  const waiting = new Map<number, (frame: Record<string, unknown>) => void>()
  const nextReply: Array<(frame: Record<string, unknown>) => void> = []
  let nextId = 1000
  ws.on('message', (data) => {
    const text = String(data)
    texts.push(text)
    const frame = JSON.parse(text) as Record<string, unknown>
    frames.push(frame)
    if ('batch' in frame) return
    const byId = typeof frame.id === 'number' ? waiting.get(frame.id) : undefined
    if (byId && typeof frame.id === 'number') {
      waiting.delete(frame.id)
      byId(frame)
      return
    }
    nextReply.shift()?.(frame)
  })
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  return {
    ws,
    frames,
    texts,
    closed,
    call(method, args = []) {
      const id = nextId++
      return new Promise((resolve) => {
        waiting.set(id, (frame) => resolve(frame.result as never))
        ws.send(JSON.stringify({ id, method, args }))
      })
    },
    sendRaw(text) {
      return new Promise((resolve) => {
        nextReply.push(resolve)
        ws.send(text)
      })
    },
  }
}

/** Polls until the predicate holds; fails after a generous bound instead of hanging. */
export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
