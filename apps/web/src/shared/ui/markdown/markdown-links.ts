/** How the markdown viewer treats a link of a description (spec §2 "Anchors used when rewriting links"). */
export type MarkdownLink =
  /** `/image/{creation time in ms}#anchor`: look the image up, then go to /image/{type}/{name}#anchor. */
  | { kind: 'image-by-time'; createTime: number; hash: string }
  /** A route of this app (`/model-zoo/{id}#anchor`, `/service-list?…`): navigate without reloading. */
  | { kind: 'route'; to: string }
  /** `#anchor` on the same page. */
  | { kind: 'anchor'; hash: string }
  /** Another site: a new tab, no referrer, no opener. */
  | { kind: 'external'; href: string }
  /** Anything else (files under /catalog-files, relative paths): an ordinary link. */
  | { kind: 'plain'; href: string };

/** First path segments that are pages of this app rather than API calls or files. */
const APP_ROUTES = new Set([
  'main-page',
  'image',
  'service-list',
  'model-zoo',
  'full-site',
  'full-site-list',
  'efile',
  '404',
]);

export function classifyLink(href: string): MarkdownLink {
  if (href.startsWith('#')) return { kind: 'anchor', hash: href };
  const byTime = /^\/image\/(\d+)\/?(#.*)?$/.exec(href);
  if (byTime) return { kind: 'image-by-time', createTime: Number(byTime[1]), hash: byTime[2] ?? '' };
  if (/^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//')) return { kind: 'external', href };
  if (href.startsWith('/')) {
    const first = href.slice(1).split(/[/?#]/, 1)[0] ?? '';
    // /model-zoo/model/... and /model-zoo/label/... are API calls, not pages.
    const api = /^\/model-zoo\/(model|label|proxy)\//.test(href);
    if (APP_ROUTES.has(first) && !api) return { kind: 'route', to: href };
  }
  return { kind: 'plain', href };
}
