/** Date of a catalogue item (ms since epoch), unambiguous in both languages: "Mar 14, 2025" / "2025年3月14日". */
export function formatDate(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(ms);
}

/**
 * A moment (ms) with date and minutes, in the user's language: "Nov 26, 2026, 2:05 PM" / "2026年11月26日 14:05". The
 * one form for a moment a person reads on its own (a share's end, a session's last use); dense tables of many rows
 * (file listings, job lists) keep their shorter numeric forms.
 */
export function formatDateTime(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

/**
 * An amount of yuan: "¥88.50" in both languages. The narrow sign, as the alert bar's text writes it: en-US's own
 * currency sign for CNY is "CN¥", and the two stood side by side on one page.
 */
export function formatMoney(yuan: number, lang: string): string {
  return new Intl.NumberFormat(lang, {
    style: 'currency',
    currency: 'CNY',
    currencyDisplay: 'narrowSymbol',
  }).format(yuan);
}

/** Download counts: 1.2K / 1.2万, exact below 10 000 so small numbers stay precise. */
export function formatCount(n: number, lang: string): string {
  if (n < 10_000) return new Intl.NumberFormat(lang).format(n);
  return new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/** What a table or detail shows for a value that is not there (yet), the same in both languages; a blank reads as a fault. */
export const NONE = '—';
