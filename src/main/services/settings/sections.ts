// Lenient reading of a settings file, one section and one entry at a time. A hand edit, a downgrade or a bug
// that spoils one window layout must not cost the user every profile, so a bad entry costs that entry and a
// section of the wrong shape costs that section. Updates stay all-or-nothing: the strict schema of every
// section is exposed so settings-schema.ts can assemble the whole-document schema from the same table.
import { z } from 'zod'

/** Receives one human-readable line per thing that was left out, e.g. `windows[2] (target.kind: …)`. */
export type Drop = (item: string) => void

export interface Section<S extends z.ZodType> {
  /** The section as a whole, for the strict parse of updates. */
  readonly strict: S
  /** What a file without this section gets; also the fallback when the section is not even the right type. */
  readonly default: () => z.output<S>
  /** Keeps what it can of the raw value and reports each thing it leaves out. */
  read(raw: unknown, key: string, drop: Drop): z.output<S>
}

export type AnySection = Section<z.ZodType>
export type SectionValue<T extends AnySection> = z.output<T['strict']>

type StringKeyOf<T> = { [K in keyof T]-?: T[K] extends string ? K : never }[keyof T] & string

export interface ListSectionOptions<E extends z.ZodType> {
  entrySchema: E
  maxEntries: number
  /** Entries are told apart (duplicates dropped, first kept) and named in messages by this field. */
  idKey?: StringKeyOf<z.output<E>>
  /** Entries that must always exist (matched by idKey): put back from here when missing or invalid. */
  required?: () => z.output<E>[]
  /** Defaults to the required entries, or an empty list. */
  default?: () => z.output<E>[]
}

/** Beyond this many entries of one section the rest are summarised: a huge broken file must not flood the UI. */
const MAX_NAMED_DROPS = 20
/** Ids longer than this are not quoted in messages; the index names the entry instead. */
const MAX_QUOTED_ID = 64
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/
const MAX_ISSUES = 3

function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * A schema may attach `params.detail` to a custom issue: the same complaint without the entry's name, which
 * the strict message needs but a message that already names the entry would repeat.
 */
function issueText(issue: z.core.$ZodIssue): string {
  const params: unknown = issue.code === 'custom' ? issue.params : undefined
  const detail =
    typeof params === 'object' && params !== null && 'detail' in params && typeof params.detail === 'string'
      ? params.detail
      : issue.message
  const text = detail.replace(/\.$/, '')
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${text}` : text
}

export function describeIssues(error: z.ZodError): string {
  const issues = error.issues
  const text = issues.slice(0, MAX_ISSUES).map(issueText).join('; ')
  return issues.length > MAX_ISSUES ? `${text}; …` : text
}

function quotableId(raw: unknown, idKey: string | undefined): string | null {
  if (idKey === undefined || typeof raw !== 'object' || raw === null || !(idKey in raw)) return null
  const id: unknown = (raw as Record<string, unknown>)[idKey]
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_QUOTED_ID || CONTROL_CHARS.test(id))
    return null
  return id
}

/** A section that is a list of independent entries (profiles, window layouts, later alerts and workspaces). */
export function listSection<E extends z.ZodType>(options: ListSectionOptions<E>): Section<z.ZodArray<E>> {
  type Entry = z.output<E>
  const { entrySchema, maxEntries, idKey } = options
  const required = options.required ?? (() => [])
  if (options.required && idKey === undefined) throw new Error('listSection: required entries need an idKey')
  const idOf = (entry: Entry): string | null => (idKey === undefined ? null : String(entry[idKey]))
  const fallback = options.default ?? required
  const minEntries = required().length
  // The minimum keeps the strict parse refusing an empty list when entries are required, as before.
  const strict =
    minEntries > 0
      ? z.array(entrySchema).min(minEntries).max(maxEntries)
      : z.array(entrySchema).max(maxEntries)

  return {
    strict,
    default: fallback,
    read(raw, key, drop) {
      if (!Array.isArray(raw)) {
        drop(`${key} (expected a list, got ${describeType(raw)})`)
        return fallback()
      }
      const requiredIds = new Set(required().map(idOf))
      let named = 0
      let unnamed = 0
      const report = (item: string): void => {
        if (named < MAX_NAMED_DROPS) {
          named++
          drop(item)
        } else unnamed++
      }
      const kept: Entry[] = []
      const keptIds = new Set<string>()
      raw.forEach((item: unknown, index) => {
        const id = quotableId(item, idKey)
        const name = id === null ? `${key}[${index}]` : `${key} ${JSON.stringify(id)}`
        const putBack = id !== null && requiredIds.has(id) ? '; the default was put back' : ''
        const parsed = entrySchema.safeParse(item)
        if (!parsed.success) {
          report(`${name} (${describeIssues(parsed.error)}${putBack})`)
          return
        }
        const entry = parsed.data
        const entryId = idOf(entry)
        if (entryId !== null) {
          if (keptIds.has(entryId)) {
            report(`${name} (duplicate id; the first one was kept)`)
            return
          }
          keptIds.add(entryId)
        }
        kept.push(entry)
      })
      const restored = required().filter((entry) => !keptIds.has(idOf(entry) ?? ''))
      for (const entry of restored) {
        const id = idOf(entry) ?? ''
        // An invalid one was already reported with "put back"; only a missing one needs its own line.
        const seen = raw.some((item: unknown) => quotableId(item, idKey) === id)
        if (!seen) report(`${key} ${JSON.stringify(id)} (missing; the default was put back)`)
      }
      let result = [...restored, ...kept]
      if (result.length > maxEntries) {
        // Required entries always stay; the newest of the others go.
        let room = maxEntries - required().length
        result = result.filter((entry) => requiredIds.has(idOf(entry)) || room-- > 0)
        report(
          `${key}: ${kept.length + restored.length - result.length} entries over the limit of ${maxEntries}`,
        )
      }
      if (unnamed > 0) drop(`${key}: ${unnamed} more`)
      return result
    },
  }
}

export interface ValueSectionOptions<S extends z.ZodType> {
  schema: S
  default: () => z.output<S>
}

/** A section that is valid or not as a whole (a setting, a small object). */
export function valueSection<S extends z.ZodType>(options: ValueSectionOptions<S>): Section<S> {
  const { schema } = options
  return {
    strict: schema,
    default: options.default,
    read(raw, key, drop) {
      const parsed = schema.safeParse(raw)
      if (parsed.success) return parsed.data
      drop(`${key} (${describeIssues(parsed.error)})`)
      return options.default()
    },
  }
}

export type SectionsValue<T extends Record<string, AnySection>> = { [K in keyof T]: SectionValue<T[K]> }
export type SectionsShape<T extends Record<string, AnySection>> = { [K in keyof T]: T[K]['strict'] }

/** The strict schemas of a table, for `z.object({ ...strictShape(table) })`. */
export function strictShape<T extends Record<string, AnySection>>(table: T): SectionsShape<T> {
  const shape: Record<string, z.ZodType> = {}
  for (const [key, section] of Object.entries(table)) shape[key] = section.strict
  // Every key of the table was filled in just above, each with that section's own schema.
  return shape as SectionsShape<T>
}

/**
 * Reads every section of a table from a parsed document. A missing section is not an error (an older file
 * predates it) and takes its default silently; a section whose value is undefined is left out.
 */
export function readSections<T extends Record<string, AnySection>>(
  table: T,
  doc: Readonly<Record<string, unknown>>,
  drop: Drop,
): SectionsValue<T> {
  const out: Record<string, unknown> = {}
  for (const [key, section] of Object.entries(table)) {
    const value = Object.hasOwn(doc, key) ? section.read(doc[key], key, drop) : section.default()
    if (value !== undefined) out[key] = value
  }
  // Each value came from its own section's read() or default(), both typed as that section's output.
  return out as SectionsValue<T>
}
