// Debian's Chromium as every browser test and the UI benchmark launch it (DESIGN §6). Without the
// background-networking flags Chromium keeps dialling out from a machine with no network.
export const CHROMIUM = process.env.TM_CHROMIUM || '/usr/bin/chromium'

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
