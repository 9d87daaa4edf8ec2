// The host's log sink: one JSON object per line on stderr, so stdout stays the one-line startup contract.
import type { LogFields, Logger } from '../services'

export function createStderrLogger(
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const log = (level: 'info' | 'warn' | 'error', message: string, fields?: LogFields): void => {
    write(`${JSON.stringify({ t: new Date().toISOString(), level, msg: message, ...fields })}\n`)
  }
  return {
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
  }
}
