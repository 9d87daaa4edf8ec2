// The worker form used by demo mode: the simulator runs on another thread and is reachable over loopback.
import { describe, expect, it } from 'vitest'
import { startSimulatorWorker } from '../../src/sim/worker'
import { WsClient, httpGet, isAck, isBook } from './helpers'

describe('startSimulatorWorker', () => {
  it('starts the simulator in a worker thread (tsx entry), serves REST and WS, and closes', async () => {
    const lines: string[] = []
    const w = await startSimulatorWorker({
      seed: 8,
      config: { events: 2, marketsPerEvent: 2, keys: [{ value: 'k' }] },
      log: (line) => lines.push(line),
    })
    try {
      expect(w.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
      expect(w.demoKey).toMatch(/^sk_demo_/)
      const r = await httpGet(`${w.baseUrl}/data/events`, { headers: { 'X-Api-Key': 'k' } })
      expect(r.status).toBe(200)
      const market = (r.json as { events: Array<{ markets: Array<{ id: string }> }> }).events[0]?.markets[0]
        ?.id as string
      const c = await WsClient.connect(w.wsUrl)
      await c.request(
        { type: 'subscribe', channel: 'market', markets: [market] },
        isAck('subscribed', 'market'),
      )
      await c.collect(isBook('market', market), 3)
      expect(lines.some((l) => l.includes('listening'))).toBe(true)
      await w.close()
      await c.closed
      await expect(httpGet(`${w.baseUrl}/data/events`)).rejects.toThrow()
    } finally {
      await w.close()
    }
  })

  it('same seed in a worker and in-process gives the same demo key', async () => {
    const { createSimulator } = await import('../../src/sim')
    const w = await startSimulatorWorker({ seed: 21 })
    const s = await createSimulator({ seed: 21 })
    try {
      expect(w.demoKey).toBe(s.demoKey)
    } finally {
      await Promise.all([w.close(), s.close()])
    }
  })

  it('rejects with a clear error when the simulator cannot start or the entry is wrong', async () => {
    await expect(startSimulatorWorker({ port: 70_000 })).rejects.toThrow(/port/)
    await expect(startSimulatorWorker({ entry: '/nonexistent/worker-entry.js' })).rejects.toThrow()
  })
})
