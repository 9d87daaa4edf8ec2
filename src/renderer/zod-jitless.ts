// The renderer's first import (main.tsx). zod v4 compiles object parsers with `new Function` unless told not
// to, and checks whether it may by calling `new Function('')` when the first object schema is built. Under the
// renderer's strict CSP (no 'unsafe-eval') that check is refused and reported as a CSP violation in the
// console. Jitless, zod interprets its schemas and never calls `new Function`, so the CSP stays strict and the
// console clean. This must run before any module that builds a schema is evaluated, hence its own module,
// imported first. (The main process keeps zod's JIT: no CSP applies there.)
import { config } from 'zod'

config({ jitless: true })
