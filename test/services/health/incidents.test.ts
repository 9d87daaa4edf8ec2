// IncidentLog on its own: open/record/end, bad-frame bursts, the cap, copies out, change notifications.
import { describe, expect, it } from 'vitest'
import { INCIDENT_CAP, IncidentLog } from '../../../src/main/services/health/incidents'

function setup(cap?: number) {
  let t = 1_000
  let changes = 0
  const log = new IncidentLog(
    () => t,
    () => {
      changes += 1
    },
    cap,
  )
  return {
    log,
    advance: (ms: number) => (t += ms),
    now: () => t,
    changes: () => changes,
  }
}

describe('IncidentLog', () => {
  it('opens an ongoing incident and records a finished one, newest first, with ids and markets', () => {
    const s = setup()
    const open = s.log.open('disconnect', 'socket closed')
    s.advance(50)
    const done = s.log.record('resync', 'book gap', 'm-1')
    expect(open).toMatchObject({ id: 1, kind: 'disconnect', startedAt: 1_000, endedAt: null })
    expect('market' in open).toBe(false)
    expect(done).toMatchObject({ id: 2, kind: 'resync', startedAt: 1_050, endedAt: 1_050, market: 'm-1' })
    expect(s.log.list().map((i) => i.id)).toEqual([2, 1])
    expect(s.changes()).toBe(2)
  })

  it('end() stamps the end and an optional new detail, once; a second end is a no-op', () => {
    const s = setup()
    const incident = s.log.open('stall', 'no data')
    s.advance(2_500)
    s.log.end(incident, 'recovered after 2.5 s')
    expect(s.log.list()[0]).toMatchObject({ endedAt: 3_500, detail: 'recovered after 2.5 s' })
    const changes = s.changes()
    s.advance(1_000)
    s.log.end(incident, 'should not apply')
    expect(s.log.list()[0]).toMatchObject({ endedAt: 3_500, detail: 'recovered after 2.5 s' })
    expect(s.changes()).toBe(changes)
  })

  it('end() without a detail keeps the detail; null/undefined and already-finished incidents are ignored', () => {
    const s = setup()
    const incident = s.log.open('auth', 'refused')
    const finished = s.log.record('rate_limit', 'slow down')
    const before = s.changes()
    s.log.end(null)
    s.log.end(undefined)
    s.log.end(finished, 'changed?')
    expect(s.changes()).toBe(before)
    expect(s.log.list()[0]?.detail).toBe('slow down')
    s.log.end(incident)
    expect(s.log.list()[1]).toMatchObject({ detail: 'refused', endedAt: 1_000 })
    expect(s.changes()).toBe(before + 1)
  })

  it('merges bad frames of one burst into one incident that counts them', () => {
    const s = setup()
    s.log.badFrame('malformed frame: a')
    s.advance(3_000)
    s.log.badFrame('malformed frame: b')
    s.advance(3_000)
    s.log.badFrame('malformed frame: c')
    const list = s.log.list()
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({
      kind: 'bad_frame',
      detail: 'malformed frame: c (3 frames)',
      startedAt: 1_000,
      endedAt: 7_000,
    })
    expect(s.changes()).toBe(3)
  })

  it('opens a new bad-frame incident once 10 s have passed since the burst began', () => {
    const s = setup()
    s.log.badFrame('first')
    s.advance(10_000)
    s.log.badFrame('second')
    const list = s.log.list()
    expect(list.map((i) => i.detail)).toEqual(['second', 'first'])
    expect(list[0]?.startedAt).toBe(11_000)
  })

  it('does not merge a bad frame into a burst that another incident came after', () => {
    const s = setup()
    s.log.badFrame('first')
    s.log.record('disconnect', 'dropped')
    s.log.badFrame('second')
    expect(s.log.list().map((i) => `${i.kind}:${i.detail}`)).toEqual([
      'bad_frame:second',
      'disconnect:dropped',
      'bad_frame:first',
    ])
  })

  it('keeps at most `cap` incidents, dropping the oldest', () => {
    const s = setup(3)
    for (let i = 1; i <= 5; i++) s.log.record('disconnect', `#${i}`)
    expect(s.log.list().map((i) => i.detail)).toEqual(['#5', '#4', '#3'])
    expect(INCIDENT_CAP).toBe(100)
    const big = setup()
    for (let i = 0; i < INCIDENT_CAP + 20; i++) big.log.record('disconnect', `#${i}`)
    expect(big.log.list()).toHaveLength(INCIDENT_CAP)
  })

  it('list() returns copies: changing them does not change the log', () => {
    const s = setup()
    const incident = s.log.open('stall', 'quiet')
    const copy = s.log.list()[0]
    if (!copy) throw new Error('no incident listed')
    copy.detail = 'tampered'
    copy.endedAt = 42
    expect(s.log.list()[0]).toMatchObject({ detail: 'quiet', endedAt: null })
    expect(copy).not.toBe(incident)
    // The live object handed to the opener is the log's own, so end() reaches it.
    s.log.end(incident)
    expect(s.log.list()[0]?.endedAt).toBe(1_000)
  })
})
