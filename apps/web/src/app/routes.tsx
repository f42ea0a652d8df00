import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
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
  page?: LazyExoticComponent<ComponentType>;
  redirect?: string;
  /** Shown in the main menu when set (spec §2 "The main menu is built from the top-level routes"). */
  menu?: { labelKey: string; icon: ReactNode };
}

const MainPage = lazy(() => import('../features/home/pages/main.page'));
const ImageListPage = lazy(() => import('../features/images/pages/image-list.page'));
const ImageDetailPage = lazy(() => import('../features/images/pages/image-detail.page'));
const ModelListPage = lazy(() => import('../features/models/pages/model-list.page'));
const ModelDetailPage = lazy(() => import('../features/models/pages/model-detail.page'));
const AppListPage = lazy(() => import('../features/apps/pages/app-list.page'));
const AppDetailPage = lazy(() => import('../features/apps/pages/app-detail.page'));
const FileManagerPage = lazy(() => import('../features/efile/pages/file-manager.page'));
const SharePage = lazy(() => import('../features/share/pages/share.page'));
const NotFoundPage = lazy(() => import('../features/not-found/pages/not-found.page'));
const LoginPage = lazy(() => import('../features/account/login.page'));

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
