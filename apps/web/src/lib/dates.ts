/** A day for reading, in the viewer's language: '3 March 2027', or with `short` months '3 Mar 2027'. */
export function dayText(iso: string, month: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat(undefined, { day: 'numeric', month, year: 'numeric' }).format(new Date(iso));
}
