// Tray (menu-bar) icons in resources/tray/, in pure Node with the rasteriser of make-icons.mjs, in two states:
// live, and not live (connecting, reconnecting, offline, key refused).
//   Windows: the app icon itself (what users look for in the notification area), 16 px + @2x; not live is
//            the same icon in grey.
//   Linux:   the same, one 32 px image: StatusNotifier hosts scale it to the panel (22-24 px on most), and an
//            @2x pair would hand them the 16 px one on a 1x display.
//   macOS:   template images (black + alpha, name ending in "Template", 16 pt + @2x) so that the menu bar tints
//            them for light and dark mode; not live is the same glyph at reduced alpha, as macOS dims an
//            inactive item. A glyph, not the app icon: a coloured square is out of place in the menu bar.
// Usage: node scripts/make-tray-icons.mjs [--check]   (--check: exit 1 when the committed files are out of date)
import { readFileSync } from 'node:fs'
import { isMain, writeOrCheck } from './lib/generated.mjs'
import { SOURCE, encodePng, parseSvg, rasterise } from './make-icons.mjs'

export const TRAY_DIR = 'resources/tray'

// Three rising bars on a 16 px grid, edges on whole pixels so the 16 px image stays crisp.
export const GLYPH = {
  size: 16,
  rects: [
    { x: 1, y: 8, w: 4, h: 7, r: 1, rgb: [0, 0, 0] },
    { x: 6, y: 5, w: 4, h: 10, r: 1, rgb: [0, 0, 0] },
    { x: 11, y: 1, w: 4, h: 14, r: 1, rgb: [0, 0, 0] },
  ],
}
// What macOS itself uses for a disabled menu-bar item is close to this.
export const TEMPLATE_OFFLINE_ALPHA = 0.35

/** Not live: every pixel to its luminance, slightly faded, so the icon reads as "inactive" on any taskbar. */
export function greyed(pixels) {
  const out = Buffer.from(pixels)
  for (let i = 0; i < out.length; i += 4) {
    const luma = Math.round(0.299 * out[i] + 0.587 * out[i + 1] + 0.114 * out[i + 2])
    // Lift dark tones a little: a grey-on-black icon on a dark taskbar would vanish.
    const lifted = Math.round(96 + (luma * (255 - 96)) / 255)
    out[i] = lifted
    out[i + 1] = lifted
    out[i + 2] = lifted
    out[i + 3] = Math.round(out[i + 3] * 0.8)
  }
  return out
}

function faded(pixels, factor) {
  const out = Buffer.from(pixels)
  for (let i = 3; i < out.length; i += 4) out[i] = Math.round(out[i] * factor)
  return out
}

/** Every output file: { path (relative to the repo), data }. */
export function buildTrayIcons(svgText = readFileSync(SOURCE, 'utf8')) {
  const app = parseSvg(svgText)
  const files = []
  const add = (name, pixels, size) =>
    files.push({ path: `${TRAY_DIR}/${name}`, data: encodePng(pixels, size) })
  for (const size of [16, 32]) {
    const suffix = size === 32 ? '@2x' : ''
    const icon = rasterise(app, size)
    add(`win-live${suffix}.png`, icon, size)
    add(`win-offline${suffix}.png`, greyed(icon), size)
    if (size === 32) {
      add('linux-live.png', icon, size)
      add('linux-offline.png', greyed(icon), size)
    }
    const glyph = rasterise(GLYPH, size)
    add(`macLiveTemplate${suffix}.png`, glyph, size)
    add(`macOfflineTemplate${suffix}.png`, faded(glyph, TEMPLATE_OFFLINE_ALPHA), size)
  }
  return files
}

if (isMain(import.meta.url)) writeOrCheck(buildTrayIcons(), 'tray icons', 'scripts/make-tray-icons.mjs')
