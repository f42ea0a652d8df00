/**
 * The pseudo-locale (`en-XA`, the code Android and Chrome use for accented English): every English text with its
 * letters accented, wrapped in brackets and padded by about 40 %, e.g. "Share link" → "[Ŝĥàŕé ļîñķ ····]".
 *
 * It is generated from the English catalogue when the language is loaded, never kept as a third catalogue, so
 * it is always complete. On screen it shows at a glance
 * - a text that does not come from the catalogue (no accents, no brackets): a hard-coded string;
 * - a text cut or spilling over (no closing bracket, dots overlapping): a layout that only fits one language;
 * - a character the fonts cannot show.
 */

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTS = 'àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŜŢÛṼŴẊÝŽ';
const ACCENTED = new Map([...PLAIN].map((c, i) => [c, [...ACCENTS][i]!]));

/** How much longer a text gets: translations into German or Russian run 30-40 % longer than English. */
const EXPANSION = 0.4;

/**
 * Placeholders that must reach the formatter untouched: i18next's `{{name}}` and nesting `$t(key)`, Ant Design's
 * `${label}` in its validation messages.
 */
const PLACEHOLDER = /(\{\{[^}]*\}\}|\$t\([^)]*\)|\$\{[^}]*\})/;

/** One text in the pseudo-locale. Empty stays empty (i18next treats an empty text as a choice). */
export function pseudoLocalise(text: string): string {
  if (text === '') return text;
  let visible = 0;
  const body = text
    .split(PLACEHOLDER)
    .map((part, i) => {
      if (i % 2 === 1) return part; // a placeholder
      visible += [...part].length;
      return part.replace(/[A-Za-z]/g, (c) => ACCENTED.get(c) ?? c);
    })
    .join('');
  const padding = '·'.repeat(Math.max(1, Math.ceil(visible * EXPANSION)));
  return `[${body} ${padding}]`;
}

type Tree = unknown;

/** A whole catalogue (nested objects, arrays, strings) in the pseudo-locale; `skip` leaves some keys as they are. */
export function pseudoTree<T extends Tree>(tree: T, skip: (key: string) => boolean = () => false): T {
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') return skip(key) ? v : pseudoLocalise(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    }
    return v; // functions, numbers, booleans, dates
  };
  return walk(tree, '') as T;
}

/**
 * Ant Design's own texts (pagination, empty states, confirm buttons) in the pseudo-locale too, so that they are
 * told apart from hard-coded ones. Its locale name and the date pickers' format patterns stay as they are.
 */
export const isAntdNonText = (key: string): boolean => key === 'locale' || /[a-z]Format$/.test(key);
