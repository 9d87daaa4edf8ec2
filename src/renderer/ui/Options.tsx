// The <option>s of a select whose choices are a table of values and labels (a sort order, a rule subject).
export function Options({ of }: { of: ReadonlyArray<{ value: string; label: string }> }) {
  return of.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ))
}
