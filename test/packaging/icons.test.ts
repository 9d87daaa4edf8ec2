// The committed icons are exactly what scripts/make-icons.mjs makes from resources/icon.svg, and each
// container is well formed.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
// @ts-expect-error -- plain .mjs script without type declarations
import * as icons from '../../scripts/make-icons.mjs'

interface IconFile {
  path: string
  data: Buffer
}
const make = icons as {
  buildIcons(svg?: string): IconFile[]
  parseSvg(svg: string): unknown
  ICO_SIZES: number[]
  ICNS_TYPES: [string, number][]
}
const root = join(__dirname, '../..')

function pngSize(png: Buffer): number {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  const width = png.readUInt32BE(16)
  expect(png.readUInt32BE(20)).toBe(width)
  return width
}

describe('icons', () => {
  const built = make.buildIcons()

  it('are up to date with the SVG source', () => {
    for (const { path, data } of built) {
      expect(
        readFileSync(join(root, path)).equals(data),
        `${path} is stale: run node scripts/make-icons.mjs`,
      ).toBe(true)
    }
  })

  it('icon.png is 1024 px RGBA with a transparent corner and an opaque centre', () => {
    const png = readFileSync(join(root, 'resources/icon.png'))
    expect(pngSize(png)).toBe(1024)
    const idat = png.subarray(33 + 8, png.length - 12)
    const raw = inflateSync(idat)
    const stride = 1024 * 4 + 1
    expect(raw.length).toBe(stride * 1024)
    expect(raw[1 + 3]).toBe(0) // pixel (0,0) alpha
    expect(raw[512 * stride + 1 + 512 * 4 + 3]).toBe(255) // centre alpha
  })

  it('icon.ico packs every Windows size as PNG', () => {
    const ico = readFileSync(join(root, 'resources/icon.ico'))
    expect(ico.readUInt16LE(2)).toBe(1)
    const count = ico.readUInt16LE(4)
    expect(count).toBe(make.ICO_SIZES.length)
    const sizes: number[] = []
    for (let i = 0; i < count; i++) {
      const entry = 6 + i * 16
      const length = ico.readUInt32LE(entry + 8)
      const offset = ico.readUInt32LE(entry + 12)
      const size = pngSize(ico.subarray(offset, offset + length))
      expect(ico[entry] === 0 ? 256 : ico[entry]).toBe(size)
      sizes.push(size)
    }
    expect(sizes).toEqual(make.ICO_SIZES)
  })

  it('icon.icns holds every macOS element with the right pixel size', () => {
    const icns = readFileSync(join(root, 'resources/icon.icns'))
    expect(icns.toString('ascii', 0, 4)).toBe('icns')
    expect(icns.readUInt32BE(4)).toBe(icns.length)
    const found: [string, number][] = []
    for (let at = 8; at < icns.length;) {
      const type = icns.toString('ascii', at, at + 4)
      const length = icns.readUInt32BE(at + 4)
      found.push([type, pngSize(icns.subarray(at + 8, at + length))])
      at += length
    }
    expect(found).toEqual(make.ICNS_TYPES)
  })

  it('refuses SVG features the rasteriser does not draw', () => {
    expect(() => make.parseSvg('<svg viewBox="0 0 10 10"><circle r="3" fill="#ffffff"/></svg>')).toThrow(
      /circle/,
    )
    expect(() =>
      make.parseSvg('<svg viewBox="0 0 10 10"><rect x="0" y="0" width="1" height="1" fill="red"/></svg>'),
    ).toThrow(/#rrggbb/)
    expect(() =>
      make.parseSvg(
        '<svg viewBox="0 0 10 10"><rect x="0" y="0" width="1" height="1" fill="#ffffff" opacity="0.5"/></svg>',
      ),
    ).toThrow(/opacity/)
  })
})
