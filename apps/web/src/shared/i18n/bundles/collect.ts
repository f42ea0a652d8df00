export type Catalogue = Record<string, unknown>;

/**
 * Every `locales/<lng>/<feature>.json` becomes the top-level key `<feature>` of one catalogue, so keys read
 * `images.list.placeholder`.
 */
export function collect(files: Record<string, { default: Catalogue }>): Catalogue {
  const out: Catalogue = {};
  for (const [file, mod] of Object.entries(files)) {
    const feature = /\/([\w-]+)\.json$/.exec(file)?.[1];
    if (feature) out[feature] = mod.default;
  }
  return out;
}
