// The page's Web Storage, or null where the page may not use it (a sandboxed or privacy-restricted page): what
// is kept there is a convenience, and the page works without it.
export function webStorage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    const store = (globalThis as Partial<Record<typeof kind, Storage>>)[kind]
    return store ?? null
  } catch {
    return null
  }
}
