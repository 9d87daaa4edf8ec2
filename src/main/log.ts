// The shell's logger: one JSON line per event on stderr. Callers pass fields, never secrets.
import type { LogFields, Logger } from './services'

function line(level: 'info' | 'warn' | 'error', message: string, fields?: LogFields): void {
  process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), level, message, ...fields })}\n`)
}

export const shellLogger: Logger = {
  info: (message, fields) => line('info', message, fields),
  warn: (message, fields) => line('warn', message, fields),
  error: (message, fields) => line('error', message, fields),
}
