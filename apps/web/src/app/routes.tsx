import type { ComponentType, ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router';
import { WebPages, type WebPagePath } from '@hpc/contracts';
import {
  AppstoreOutlined,
  CodeOutlined,
  ContainerOutlined,
  DashboardOutlined,
  ExperimentOutlined,
  FolderOpenOutlined,
  HomeOutlined,
  ScheduleOutlined,
} from '@ant-design/icons';

/** The part of the site a route belongs to: selects the menu item and the header search's target. */
export type Section =
  'dashboard' | 'jobs' | 'eshell' | 'home' | 'images' | 'models' | 'apps' | 'efile' | 'other';

/** What a route's loader gets: the query cache to fill, the address and the route's parameters. */
export interface LoadArgs {
  qc: QueryClient;
  url: URL;
  params: Params;
  /** The browser may have a session (the portal's CSRF cookie is set): a loader of a user's data starts only then. */
  signedIn: boolean;
}

export interface AppRoute {
  /** A page's address comes from contracts' `WebPages` (the portal answers 404 for any other); `*` is the rest. */
  path: WebPagePath | '*';
  section: Section;
  /**
   * The page's module (one chunk per page), loaded by the router at navigation (React Router's route `lazy`, in
   * app/router.tsx, with spec §9's part timeout and the reload after a redeploy of app/part-loading.ts).
   */
  page?: () => Promise<{ default: ComponentType }>;
  /**
   * What the page needs, started at navigation into the query cache the page's hooks read, in parallel with the
   * page's code. Loaders start work and return: pages show their own loading states and failures.
   */
  load?: (args: LoadArgs) => Promise<void>;
  redirect?: string;
  /** Shown in the main menu when set (spec §2 "The main menu is built from the top-level routes"). */
  menu?: { labelKey: string; icon: ReactNode };
}

/** The one route table: the router and the main menu are both built from it (spec §2 routes table). */
export const appRoutes: AppRoute[] = [
  { path: WebPages.root, section: 'home', redirect: '/main-page' },
  // spec §2: the main menu of the larger product starts with Dashboard and Job (issue 22 §3, §4).
  {
    path: WebPages.dashboard,
    section: 'dashboard',
    page: () => import('../features/dashboard/pages/dashboard.page'),
    load: async ({ qc }) => (await import('../features/dashboard/dashboard.loader')).loadDashboard(qc),
    menu: { labelKey: 'dashboard.menu', icon: <DashboardOutlined /> },
  },
  {
    path: WebPages.jobs,
    section: 'jobs',
    page: () => import('../features/jobs/pages/jobs.page'),
    menu: { labelKey: 'jobs.menu', icon: <ScheduleOutlined /> },
  },
  // spec §2: "Command (E-Shell)" follows Job in the larger product's menu (issue 26 §2).
  {
    path: WebPages.eshell,
    section: 'eshell',
    page: () => import('../features/eshell/pages/eshell.page'),
    menu: { labelKey: 'eshell.menu', icon: <CodeOutlined /> },
  },
  {
    path: WebPages.home,
    section: 'home',
    page: () => import('../features/home/pages/main.page'),
    load: async ({ qc }) => (await import('../features/home/hooks/use-home-items')).loadHome(qc),
    menu: { labelKey: 'nav.home', icon: <HomeOutlined /> },
  },
  {
    path: WebPages.images,
    section: 'images',
    redirect: '/service-list',
    menu: { labelKey: 'nav.images', icon: <ContainerOutlined /> },
  },
  {
    path: WebPages.imageList,
    section: 'images',
    page: () => import('../features/images/pages/image-list.page'),
    load: async ({ qc, url }) =>
      (await import('../features/images/api/images.queries')).loadImageList(qc, url),
  },
  {
    path: WebPages.imageDetail,
    section: 'images',
    page: () => import('../features/images/pages/image-detail.page'),
    load: async ({ qc, params }) =>
      (await import('../features/images/api/images.queries')).loadImageDetail(qc, params),
  },
  {
    path: WebPages.models,
    section: 'models',
    redirect: '/model-zoo/list',
    menu: { labelKey: 'nav.models', icon: <ExperimentOutlined /> },
  },
  {
    path: WebPages.modelList,
    section: 'models',
    page: () => import('../features/models/pages/model-list.page'),
    load: async ({ qc, url }) =>
      (await import('../features/models/api/models.queries')).loadModelList(qc, url),
  },
  {
    path: WebPages.modelDetail,
    section: 'models',
    page: () => import('../features/models/pages/model-detail.page'),
    load: async ({ qc, params }) =>
      (await import('../features/models/api/models.queries')).loadModelDetail(qc, params),
  },
  {
    path: WebPages.apps,
    section: 'apps',
    redirect: '/full-site-list',
    menu: { labelKey: 'nav.apps', icon: <AppstoreOutlined /> },
  },
  {
    path: WebPages.appList,
    section: 'apps',
    page: () => import('../features/apps/pages/app-list.page'),
    load: async ({ qc, url }) => (await import('../features/apps/api/apps.queries')).loadAppList(qc, url),
  },
  {
    path: WebPages.appDetail,
    section: 'apps',
    page: () => import('../features/apps/pages/app-detail.page'),
    load: async ({ qc, params }) =>
      (await import('../features/apps/api/apps.queries')).loadAppDetail(qc, params),
  },
  { path: WebPages.login, section: 'other', page: () => import('../features/account/login.page') },
  {
    path: WebPages.userCentre,
    section: 'other',
    page: () => import('../features/user-centre/pages/user-centre.page'),
  },
  {
    path: WebPages.efile,
    section: 'efile',
    page: () => import('../features/efile/pages/file-manager.page'),
    load: async ({ qc, url, signedIn }) =>
      (await import('../features/efile/efile.loader')).efileLoader(qc, url, signedIn),
    menu: { labelKey: 'efile.menu', icon: <FolderOpenOutlined /> },
  },
  // The anonymous recipient page of a share link (efile answers links of this form).
  {
    path: WebPages.share,
    section: 'other',
    page: () => import('../features/share/pages/share.page'),
  },
  // The in-app 404 page: the development server's answer to unknown addresses, and /404 itself.
  {
    path: WebPages.notFound,
    section: 'other',
    page: () => import('../features/not-found/pages/not-found.page'),
  },
  // In production the browser goes to the portal's static 404 page instead (spec §2).
  {
    path: '*',
    section: 'other',
    page: import.meta.env.PROD
      ? () => import('../features/not-found/pages/static-not-found.page')
      : () => import('../features/not-found/pages/not-found.page'),
  },
];

/** Where each section's list lives: the header search sends its query there. */
export const LIST_PATH: Record<Section, string> = {
  dashboard: '/full-site-list',
  jobs: '/full-site-list',
  eshell: '/full-site-list',
  home: '/full-site-list',
  images: '/service-list',
  models: '/model-zoo/list',
  apps: '/full-site-list',
  efile: '/full-site-list',
  other: '/full-site-list',
};
