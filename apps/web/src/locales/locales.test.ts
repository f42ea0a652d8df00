import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '@hpc/contracts';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(here, '..');

type Tree = { [k: string]: string | Tree };

/** Every catalogue of a language as flat keys `feature.a.b` → text, like i18next reads them. */
function flatten(lang: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (prefix: string, node: Tree) => {
    for (const [k, v] of Object.entries(node)) {
      const key = `${prefix}.${k}`;
      if (typeof v === 'string') out.set(key, v);
      else walk(key, v);
    }
  };
  for (const file of fs.readdirSync(path.join(here, lang)).filter((f) => f.endsWith('.json'))) {
    walk(
      file.replace(/\.json$/, ''),
      JSON.parse(fs.readFileSync(path.join(here, lang, file), 'utf8')) as Tree,
    );
  }
  return out;
}

/** Plural forms differ by language (English has _one, Chinese only _other): compare their base keys. */
const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe('locale catalogues', () => {
  const zh = flatten('zh-CN');
  const en = flatten('en-US');

  it('have the same keys in Chinese (the source) and English', () => {
    const zhKeys = [...new Set([...zh.keys()].map(base))].sort();
    const enKeys = [...new Set([...en.keys()].map(base))].sort();
    expect(enKeys).toEqual(zhKeys);
  });

  it('have no empty texts', () => {
    const empty = [...zh, ...en].filter(([, v]) => !v.trim()).map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it('use the same interpolation variables in both languages', () => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const mismatched = [...zh].filter(([k, v]) => {
      const other = en.get(k) ?? en.get(`${base(k)}_other`);
      return other !== undefined && vars(v).join() !== vars(other).join();
    });
    expect(mismatched).toEqual([]);
  });

  it('translate every error code of the registry (spec §8)', () => {
    const missing = Object.keys(ErrorCodes).filter((c) => !zh.has(`errors.${c}`) || !en.has(`errors.${c}`));
    expect(missing).toEqual([]);
  });
});

/** Source files of the web app, recursively. */
function sources(dir: string, ext: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p, ext);
    return ext.test(e.name) && !e.name.includes('.test.') ? [p] : [];
  });
}

/** Text a person reads: anything with a letter or a CJK character. */
const READABLE = /[\p{L}\p{Script=Han}]/u;

/**
 * Hard-coded visible text in JSX: text between tags (`>Save<`), and string literals of attributes people read
 * (`title="…"`, `placeholder="…"`, `aria-label="…"`, `alt="…"`). Code in `{…}` is not text, so `{t('x')}` passes.
 */
export function hardCodedStrings(code: string): string[] {
  const found: string[] = [];
  // Strip comments first: they are for developers.
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  for (const m of text.matchAll(/(?<!=)>([^<>{}]+)</g)) {
    const chunk = m[1] ?? '';
    // `a > b` and generics `Array<T>` in TS also match: only keep chunks that look like prose on one line.
    // After a self-closing tag we may be back in code (`<A /> : b ? <C />`, `<A />,\n label:`): skip those.
    const code = /[=;()&|]|=>/.test(chunk) || /^\s*[:,?]/.test(chunk) || /\s\?\s/.test(chunk);
    if (READABLE.test(chunk) && !code) {
      found.push(chunk.trim());
    }
  }
  for (const m of text.matchAll(/\b(title|placeholder|aria-label|alt|label)="([^"]*)"/g)) {
    if (READABLE.test(m[2] ?? '')) found.push(`${m[1]}="${m[2]}"`);
  }
  return found;
}

describe('no visible string outside t()', () => {
  it('the detector catches hard-coded text and lets translated text pass', () => {
    expect(hardCodedStrings('<Button>Save</Button>')).toEqual(['Save']);
    expect(hardCodedStrings('<span>保存</span>')).toEqual(['保存']);
    expect(hardCodedStrings('<Input placeholder="Search" />')).toEqual(['placeholder="Search"']);
    expect(hardCodedStrings('<Button>{t("common.save")}</Button>')).toEqual([]);
    expect(hardCodedStrings('<span>+{rest.length}</span>')).toEqual([]);
    expect(hardCodedStrings('const x: Array<string> = []; if (a > b && c < d) {}')).toEqual([]);
    expect(hardCodedStrings('r ? <Navigate /> : Page ? <Page /> : null')).toEqual([]);
  });

  it('finds none in apps/web/src/**/*.tsx', () => {
    const offenders = sources(src, /\.tsx$/).flatMap((file) =>
      hardCodedStrings(fs.readFileSync(file, 'utf8')).map((s) => `${path.relative(src, file)}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
