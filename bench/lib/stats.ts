// Latency samples: a growable Float64Array (no per-sample allocation in the sink) with exact percentiles.
export class SampleSet {
  private data = new Float64Array(1 << 16)
  private n = 0

  get count(): number {
    return this.n
  }

  add(v: number): void {
    if (this.n === this.data.length) {
      const next = new Float64Array(this.data.length * 2)
      next.set(this.data)
      this.data = next
    }
    this.data[this.n++] = v
  }

  clear(): void {
    this.n = 0
  }

  /** Nearest-rank percentile (p in [0, 100]); null without samples. */
  percentile(p: number): number | null {
    if (this.n === 0) return null
    const sorted = this.data.slice(0, this.n).sort()
    const rank = Math.min(this.n - 1, Math.max(0, Math.ceil((p / 100) * this.n) - 1))
    return sorted[rank] ?? null
  }

  max(): number | null {
    if (this.n === 0) return null
    let m = -Infinity
    for (let i = 0; i < this.n; i++) m = Math.max(m, this.data[i] ?? -Infinity)
    return m
  }
}

export function round(v: number | null, digits = 2): number | null {
  if (v === null || !Number.isFinite(v)) return null
  const f = 10 ** digits
  return Math.round(v * f) / f
}
