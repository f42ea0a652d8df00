/**
 * The addresses of the web app's pages (spec §2 routes table), in one place: the web's route table
 * (apps/web/src/app/routes.tsx) takes each route's path from here (its type allows no other), and the portal
 * answers an address none of them matches with HTTP 404 and the static 404 page instead of the app (issue 25 §3.8:
 * curl, monitors and crawlers read the status).
 */
export const WebPages = {
  root: '/',
  dashboard: '/dashboard',
  jobs: '/jobs',
  eshell: '/eshell',
  home: '/main-page',
  images: '/image',
  imageList: '/service-list',
  imageDetail: '/image/:acceleratorType/:imageName',
  models: '/model-zoo',
  modelList: '/model-zoo/list',
  modelDetail: '/model-zoo/:id',
  apps: '/full-site',
  appList: '/full-site-list',
  appDetail: '/full-site/:id',
  login: '/login',
  userCentre: '/user-center',
  efile: '/efile',
  share: '/share/:clusterId/:shareId',
  notFound: '/404',
} as const;

export type WebPagePath = (typeof WebPages)[keyof typeof WebPages];

const PATTERNS: string[][] = Object.values(WebPages).map(segments);

function segments(pathname: string): string[] {
  return pathname.split('/').filter((s) => s !== '');
}

/**
 * Whether the web app has a page at `pathname` (no query): matched as React Router matches the route table, case
 * aside and a trailing slash allowed; `:name` stands for one non-empty segment.
 */
export function isWebPage(pathname: string): boolean {
  const parts = segments(pathname);
  return PATTERNS.some(
    (pattern) =>
      pattern.length === parts.length &&
      pattern.every((p, i) => p.startsWith(':') || p.toLowerCase() === parts[i]!.toLowerCase()),
  );
}
