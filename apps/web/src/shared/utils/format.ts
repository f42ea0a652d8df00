/** Date of a catalogue item (ms since epoch), unambiguous in both languages: "Mar 14, 2025" / "2025年3月14日". */
export function formatDate(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(ms);
}

/** Download counts: 1.2K / 1.2万, exact below 10 000 so small numbers stay precise. */
export function formatCount(n: number, lang: string): string {
  if (n < 10_000) return new Intl.NumberFormat(lang).format(n);
  return new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/** What a table or detail shows for a value that is not there (yet), the same in both languages; a blank reads as a fault. */
export const NONE = '—';
