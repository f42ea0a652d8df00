/** A moment (ms) with date and minutes, in the user's language: "Nov 26, 2026, 14:05" / "2026年11月26日 14:05". */
export function formatDateTime(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}
