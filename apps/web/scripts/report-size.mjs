// Prints the gzip size of what the browser loads first for /service-list (the image list): the entry chunk, the
// list page's lazy chunk, the default language's chunk, and every chunk they import statically. Reads Vite's manifest (build.manifest: true).
// Budget (issue §4): initial JS under 350 KB gzip; exits non-zero when over so a regression fails the build.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const BUDGET_KB = 350;
const ROUTE_PAGE = 'src/features/images/pages/image-list.page.tsx';
// The first render waits for the default language's texts (a dynamic import), so they count as initial too.
const FIRST_LANGUAGE = 'src/shared/i18n/bundles/zh-CN.ts';

/** Chunks loaded with `key`: itself and its static imports, recursively (dynamic imports load later). */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entry || !manifest[ROUTE_PAGE] || !manifest[FIRST_LANGUAGE]) {
  console.error(`report-size: entry, ${ROUTE_PAGE} or ${FIRST_LANGUAGE} not found in the manifest`);
  process.exit(1);
}
const keys = closure(FIRST_LANGUAGE, closure(ROUTE_PAGE, closure(entry)));
const rows = [];
const css = new Set();
for (const key of keys) {
  const chunk = manifest[key];
  for (const c of chunk.css ?? []) css.add(c);
  const buf = fs.readFileSync(path.join(dist, chunk.file));
  rows.push({ file: chunk.file, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length });
}
const cssRows = [...css].map((file) => {
  const buf = fs.readFileSync(path.join(dist, file));
  return { file, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
});
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const sum = (list, f) => list.reduce((s, r) => s + r[f], 0);

console.log('\nInitial load of /service-list:');
for (const r of [...rows, ...cssRows].sort((a, b) => b.gzip - a.gzip)) {
  console.log(`  ${r.file.padEnd(48)} ${kb(r.raw).padStart(10)}  gzip ${kb(r.gzip).padStart(9)}`);
}
const jsGzip = sum(rows, 'gzip');
console.log(`  JS total: ${kb(sum(rows, 'raw'))}, gzip ${kb(jsGzip)} (budget ${BUDGET_KB} KB)`);
console.log(`  CSS total: gzip ${kb(sum(cssRows, 'gzip'))}\n`);
if (jsGzip > BUDGET_KB * 1024) {
  console.error(`report-size: initial JS of /service-list is over the ${BUDGET_KB} KB gzip budget`);
  process.exit(1);
}
