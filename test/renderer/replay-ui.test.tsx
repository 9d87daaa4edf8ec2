// @vitest-environment happy-dom
// The replay banner and the recording controls against a scripted MonitorApi: nothing without a replay; the
// banner with its controls (speed, pause, seek, stop) while one runs; the record toggle and the recordings list
// with a Replay button per good file and the error of a bad one.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { RecordingControls } from '../../src/renderer/features/recording/RecordingControls'
import { ReplayBar } from '../../src/renderer/features/recording/ReplayBar'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { ok } from '../../src/shared/ipc'
import type { ReplayStatus } from '../../src/shared/model'
import { withDom } from './dom'
import { createFakeApi, status, type FakeApi } from './fake-api'

const dom = withDom()
const byTestId = (id: string) => dom.byTestId(id)
const settle = () => act(async () => new Promise<void>((r) => setTimeout(r, 30)))

const replay: ReplayStatus = {
  file: 'rec-2026-11-23T04-31-00Z-sim.jsonl.gz',
  speed: 10,
  paused: false,
  state: 'playing',
  epoch: 0,
  positionMs: 12_000,
  durationMs: 30_000,
  profileName: 'sim',
  recordedAt: 0,
}

async function render(api: FakeApi): Promise<void> {
  await act(async () => {
    dom.root.render(
      <ServicesProvider api={api}>
        <ReplayBar />
        <RecordingControls />
      </ServicesProvider>,
    )
  })
  await settle()
}

describe('replay UI', () => {
  it('shows no banner without a replay, and the banner with its controls during one', async () => {
    let current = status()
    const api = createFakeApi({ getStatus: async () => ok(current) })
    await render(api)
    expect(byTestId('replay-banner')).toEqual([])
    current = status({ replay })
    await act(async () => api.push({ status: status({ replay }) }))
    await settle()
    const banner = byTestId('replay-banner')[0]
    expect(banner?.textContent).toContain(`Replay — ${replay.file} — read-only`)
    expect((byTestId('replay-speed')[0] as HTMLSelectElement).value).toBe('10')
    expect(byTestId('replay-position')[0]?.textContent).toBe('0:12 / 0:30')
    const seek = byTestId('replay-seek')[0] as HTMLInputElement
    expect(seek.max).toBe('30000')
    expect(byTestId('replay-seeking')).toEqual([])
    // While the engine feeds a seek's frames the banner says so, until it lands.
    current = status({ replay: { ...replay, seeking: true } })
    await act(async () => api.push({ status: current }))
    await settle()
    expect(byTestId('replay-seeking')[0]?.textContent).toBe('Seeking…')
    current = status({ replay })
    await act(async () => api.push({ status: current }))
    await settle()
    expect(byTestId('replay-seeking')).toEqual([])

    const speed = byTestId('replay-speed')[0] as HTMLSelectElement
    await act(async () => {
      speed.value = '50'
      speed.dispatchEvent(new Event('change', { bubbles: true }))
    })
    expect(api.callsOf('controlReplay')).toContainEqual([{ speed: 50 }])
    await act(async () => byTestId('replay-play')[0]?.click())
    expect(api.callsOf('controlReplay')).toContainEqual([{ paused: true }])
    await act(async () => byTestId('replay-stop')[0]?.click())
    expect(api.callsOf('stopReplay')).toHaveLength(1)
  })

  it('lists recordings: Replay on a good one, the error of a bad one; the record toggle', async () => {
    const api = createFakeApi({
      listRecordings: async () =>
        ok([
          {
            name: 'good.jsonl.gz',
            bytes: 2048,
            startedAt: new Date(2026, 10, 25, 9, 30).getTime(),
            // A listing reads only the header: the length is known once replayed, the start at once.
            durationMs: null,
            frames: null,
            profileName: 'sim',
          },
          {
            name: 'bad.jsonl',
            bytes: 5,
            startedAt: null,
            durationMs: null,
            frames: null,
            profileName: null,
            error: 'Recording "bad.jsonl" cannot be replayed: line 1: the first line is not JSON',
          },
        ]),
    })
    await render(api)
    const rows = byTestId('recording-row')
    expect(rows.map((r) => r.dataset.file)).toEqual(['good.jsonl.gz', 'bad.jsonl'])
    expect(rows[0]?.textContent).toContain('2026-11-25 09:30')
    expect(rows[1]?.textContent).toContain('line 1')
    expect(rows[1]?.querySelector('[data-testid="replay-start"]')).toBeNull()
    const speed = byTestId('replay-start-speed')[0] as HTMLSelectElement
    await act(async () => {
      speed.value = '10'
      speed.dispatchEvent(new Event('change', { bubbles: true }))
    })
    await act(async () => (rows[0]?.querySelector('[data-testid="replay-start"]') as HTMLElement).click())
    expect(api.callsOf('startReplay')).toEqual([[{ file: 'good.jsonl.gz', speed: 10 }]])

    const toggle = byTestId('record-toggle')[0]
    expect(toggle?.dataset.state).toBe('idle')
    await act(async () => toggle?.click())
    expect(api.callsOf('startRecording')).toHaveLength(1)
    await act(async () =>
      api.push({
        status: status({
          recording: {
            file: 'rec-x.jsonl.gz',
            bytes: 3 * 1024 * 1024,
            startedAt: 1,
            limitBytes: 1,
            frames: 5,
          },
        }),
      }),
    )
    await settle()
    expect(byTestId('record-toggle')[0]?.dataset.state).toBe('recording')
    expect(byTestId('record-toggle')[0]?.textContent).toContain('3.0 MB')
  })
})
