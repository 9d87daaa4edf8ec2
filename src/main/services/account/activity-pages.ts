// What the account did since a moment. VoxFi's Get User Activity is paged (`page`, `pageSize`, newest first:
// docs/voxfi.md §8 item 13) and has no "since": a read goes page after page until a page reaches back before the
// moment, or ends short of a full page (the activity's end). One reader for the orders' reconciliation and the
// account's gap after a drop, so both stop at the same place and say the same when they could not get there.
import { listOf, normaliseTime, type Obj } from '../../../shared/account'

/** Get User Activity, to which a read adds its page and, where it narrows, the documented `marketId`. */
const ACTIVITY_PATH = '/data/activity'

/** Activity rows asked for a page. */
export const ACTIVITY_PAGE_SIZE = 50

/** The path of one activity page, of one market's rows where `marketId` is given. */
export function activityPath(page: number, marketId?: string): string {
  const q = new URLSearchParams({
    ...(marketId !== undefined ? { marketId } : {}),
    page: String(page),
    pageSize: String(ACTIVITY_PAGE_SIZE),
  })
  return `${ACTIVITY_PATH}?${q.toString()}`
}

export interface ActivitySince {
  /** The rows read, newest first, every page's in turn. */
  rows: Obj[]
  /**
   * Whether the rows reach back to the moment asked for: a page held a row made before it, or was the activity's
   * last. False when `maxPages` pages of newer rows were read: older executions exist that `rows` lacks.
   */
  complete: boolean
}

/**
 * The activity made since `since` (ms) and somewhat before, in at most `maxPages` pages, for one market where
 * `marketId` is given. `readPage` answers a path with its body, or undefined when the venue refused or could not be
 * reached: then nothing is returned (undefined), since a partial read cannot say what is missing.
 *
 * Pages are asked for by number while new executions push rows down: one made between two pages' reads would put
 * a row on both, and rows carry no id to tell a row read twice from two identical executions. So a read of several
 * pages asks for the first again at the end, and is no answer (undefined) unless it is as it was: nothing was
 * added meanwhile, and no row moved.
 */
export async function activitySince(
  readPage: (path: string) => Promise<unknown>,
  since: number,
  maxPages: number,
  marketId?: string,
): Promise<ActivitySince | undefined> {
  const rows: Obj[] = []
  let first: string | null = null
  let complete = false
  let pages = 0
  while (pages < maxPages && !complete) {
    const body = await readPage(activityPath(++pages, marketId))
    if (body === undefined) return undefined
    const pageRows = listOf(body, ['activity', 'activities'])
    first ??= JSON.stringify(pageRows)
    let oldest = Number.POSITIVE_INFINITY
    for (const a of pageRows) {
      rows.push(a)
      // A row without a time says nothing of how far back the page reaches.
      const at = normaliseTime(a.created_at)
      if (at !== null) oldest = Math.min(oldest, at)
    }
    complete = pageRows.length < ACTIVITY_PAGE_SIZE || oldest < since
  }
  if (pages > 1) {
    const again = await readPage(activityPath(1, marketId))
    if (again === undefined || JSON.stringify(listOf(again, ['activity', 'activities'])) !== first)
      return undefined
  }
  return { rows, complete }
}
