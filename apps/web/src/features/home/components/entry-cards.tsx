import type { ReactNode } from 'react';
import {
  AppstoreOutlined,
  ArrowRightOutlined,
  ContainerOutlined,
  ExperimentOutlined,
  FolderOpenOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHomeItems } from '../hooks/use-home-items';

interface Entry {
  key: string;
  to: string;
  icon: ReactNode;
  total?: number;
}

/** The four doors of the portal: image centre, model zoo, application centre, E-File. */
export function EntryCards() {
  const { t } = useTranslation();
  // Same keys as the "newest" strips below: the totals come with no extra request.
  const images = useHomeItems('images', 'newest');
  const models = useHomeItems('models', 'newest');
  const apps = useHomeItems('apps', 'newest');
  const entries: Entry[] = [
    { key: 'images', to: '/service-list', icon: <ContainerOutlined />, total: images.data?.total },
    { key: 'models', to: '/model-zoo/list', icon: <ExperimentOutlined />, total: models.data?.total },
    { key: 'apps', to: '/full-site-list', icon: <AppstoreOutlined />, total: apps.data?.total },
    { key: 'efile', to: '/efile', icon: <FolderOpenOutlined /> },
  ];
  return (
    <div className="hpc-entries">
      {entries.map((e) => (
        <Link key={e.key} to={e.to} className={`hpc-entry hpc-entry-${e.key}`}>
          <span className="hpc-entry-icon">{e.icon}</span>
          <span className="hpc-entry-text">
            <strong>{t(`home.entries.${e.key}.title`)}</strong>
            <span>{t(`home.entries.${e.key}.description`)}</span>
          </span>
          <span className="hpc-entry-foot">
            {e.total !== undefined
              ? t(`home.entries.${e.key}.count`, { count: e.total })
              : t('home.entries.open')}
            <ArrowRightOutlined />
          </span>
        </Link>
      ))}
    </div>
  );
}
