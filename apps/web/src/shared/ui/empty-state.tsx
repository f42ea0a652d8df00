import type { ReactNode } from 'react';
import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import '../catalog/catalog.css';

/** "No info" (spec §2): Ant Design's empty picture with our text, and an optional action. */
export function EmptyState({ description, children }: { description?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Empty
      className="hpc-empty"
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={description ?? t('common.noInfo')}
    >
      {children}
    </Empty>
  );
}
