// Every platform's app icon from ONE source, resources/icon.svg, in pure Node (no native tools):
//   resources/icon.png (1024), resources/icons/NxN.png (Linux), resources/icon.ico (Windows, PNG-packed),
//   resources/icon.icns (macOS, PNG-packed).
// The rasteriser supports exactly what the source uses: <rect> with x/y/width/height/optional rx and a solid
// #rrggbb fill, painted in document order, 4x4 supersampled. Anything else in the SVG is an error, so the
// output can never silently differ from the drawing.
// Usage: node scripts/make-icons.mjs [--check]   (--check: exit 1 when the committed files are out of date)
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { isMain, root, writeOrCheck } from './lib/generated.mjs'

export const SOURCE = join(root, 'resources', 'icon.svg')
export const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024]
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
// ICNS element types holding PNG data, with their pixel size.
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
]

/** Parse the supported SVG subset into { size, rects }. Throws on anything unsupported. */
export function parseSvg(text) {
  const body = text.replace(/<\?xml[^>]*\?>/g, '').replace(/<!--[\s\S]*?-->/g, '')
  const viewBox = /<svg\b[^>]*\bviewBox="0 0 (\d+) (\d+)"/.exec(body)
  if (!viewBox || viewBox[1] !== viewBox[2]) throw new Error('icon.svg: need a square viewBox="0 0 N N"')
  const size = Number(viewBox[1])
  const rects = []
  for (const tag of body.matchAll(/<(\/?)([a-zA-Z]+)\b([^>]*)>/g)) {
    const [, closing, name, attrs] = tag
    if (name === 'svg' || name === 'title' || name === 'desc' || closing) continue
    if (name !== 'rect') throw new Error(`icon.svg: <${name}> is not supported by make-icons (rects only)`)
    const attr = (key, fallback) => {
      const m = new RegExp(`\\b${key}="([^"]*)"`).exec(attrs)
      if (!m) {
        if (fallback === undefined) throw new Error(`icon.svg: <rect> without ${key}`)
        return fallback
      }
      return m[1]
    }
    const fill = attr('fill')
    if (!/^#[0-9a-fA-F]{6}$/.test(fill)) throw new Error(`icon.svg: fill ${fill} must be #rrggbb`)
    const extra = attrs.replace(/\b(x|y|width|height|rx|fill)="[^"]*"/g, '').replace(/[\s/]/g, '')
    if (extra) throw new Error(`icon.svg: unsupported <rect> attributes: ${extra}`)
    rects.push({
      x: Number(attr('x')),
      y: Number(attr('y')),
      w: Number(attr('width')),
      h: Number(attr('height')),
      r: Number(attr('rx', '0')),
      rgb: [1, 3, 5].map((i) => parseInt(fill.slice(i, i + 2), 16)),
    })
  }
  if (rects.length === 0) throw new Error('icon.svg: nothing to draw')
  return { size, rects }
}

function inside(rect, px, py) {
  const { x, y, w, h, r } = rect
  if (px < x || py < y || px >= x + w || py >= y + h) return false
  if (r <= 0) return true
  const cx = px < x + r ? x + r : px > x + w - r ? x + w - r : px
  const cy = py < y + r ? y + r : py > y + h - r ? y + h - r : py
  const dx = px - cx
  const dy = py - cy
  return dx * dx + dy * dy <= r * r
}

/** RGBA pixels (non-premultiplied) of the drawing at size x size. */
export function rasterise(drawing, size) {
  const ss = 4
  const scale = drawing.size / size
  const pixels = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0
      let g = 0
      let b = 0
      let covered = 0
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const x = (px + (sx + 0.5) / ss) * scale
          const y = (py + (sy + 0.5) / ss) * scale
          let hit = null
          for (const rect of drawing.rects) if (inside(rect, x, y)) hit = rect
          if (hit) {
            r += hit.rgb[0]
            g += hit.rgb[1]
            b += hit.rgb[2]
            covered++
          }
        }
      }
      const o = (py * size + px) * 4
      if (covered > 0) {
        pixels[o] = Math.round(r / covered)
        pixels[o + 1] = Math.round(g / covered)
        pixels[o + 2] = Math.round(b / covered)
        pixels[o + 3] = Math.round((covered / (ss * ss)) * 255)
      }
    }
  }
  return pixels
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buffer) {
  let c = 0xffffffff
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typed))
  return Buffer.concat([length, typed, crc])
}

/** A PNG file (8-bit RGBA, no filtering) of the pixels. Deterministic for the same input. */
export function encodePng(pixels, size) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) pixels.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** ICO with PNG-compressed images (Windows Vista and later read these). */
export function encodeIco(pngs) {
  const header = Buffer.alloc(6)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2)
  header.writeUInt16LE(pngs.length, 4)
  const entries = []
  let offset = 6 + 16 * pngs.length
  for (const { size, png } of pngs) {
    const entry = Buffer.alloc(16)
    entry[0] = size >= 256 ? 0 : size
    entry[1] = size >= 256 ? 0 : size
    entry.writeUInt16LE(1, 4) // planes
    entry.writeUInt16LE(32, 6) // bits per pixel
    entry.writeUInt32LE(png.length, 8)
    entry.writeUInt32LE(offset, 12)
    offset += png.length
    entries.push(entry)
  }
  return Buffer.concat([header, ...entries, ...pngs.map((p) => p.png)])
}

/** ICNS with PNG elements. */
export function encodeIcns(elements) {
  const parts = elements.map(({ type, png }) => {
    const head = Buffer.alloc(8)
    head.write(type, 0, 'ascii')
    head.writeUInt32BE(png.length + 8, 4)
    return Buffer.concat([head, png])
  })
  const head = Buffer.alloc(8)
  head.write('icns', 0, 'ascii')
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4)
  return Buffer.concat([head, ...parts])
}

/** Every output file: { path (relative to the repo), data }. */
export function buildIcons(svgText = readFileSync(SOURCE, 'utf8')) {
  const drawing = parseSvg(svgText)
  const cache = new Map()
  const png = (size) => {
    if (!cache.has(size)) cache.set(size, encodePng(rasterise(drawing, size), size))
    return cache.get(size)
  }
  const files = [{ path: 'resources/icon.png', data: png(1024) }]
  for (const size of LINUX_SIZES) files.push({ path: `resources/icons/${size}x${size}.png`, data: png(size) })
  files.push({
    path: 'resources/icon.ico',
    data: encodeIco(ICO_SIZES.map((size) => ({ size, png: png(size) }))),
  })
  files.push({
    path: 'resources/icon.icns',
    data: encodeIcns(ICNS_TYPES.map(([type, size]) => ({ type, png: png(size) }))),
  })
  return files
}

if (isMain(import.meta.url)) writeOrCheck(buildIcons(), 'icons', 'scripts/make-icons.mjs')
