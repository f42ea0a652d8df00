import { AppstoreOutlined, BarsOutlined } from '@ant-design/icons';
import { Segmented, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CatalogSort } from '@hpc/contracts';
import type { CardLayout } from '../ui/catalog-card';
import { SORTS } from './list-state';

interface Props {
  total: number | undefined;
  sort: CatalogSort;
  onSort: (s: CatalogSort) => void;
  layout: CardLayout;
  onLayout: (l: CardLayout) => void;
}

/** Result count, sort order and the grid/list switch above a catalogue list. */
export function ListToolbar({ total, sort, onSort, layout, onLayout }: Props) {
  const { t } = useTranslation();
  return (
    <div className="hpc-list-toolbar">
      <span className="hpc-list-total" aria-live="polite">
        {total === undefined ? '\u00a0' : t('catalog.list.total', { count: total })}
      </span>
      <div className="hpc-list-controls">
        <Select<CatalogSort>
          aria-label={t('catalog.sort.label')}
          value={sort}
          onChange={onSort}
          style={{ width: 150 }}
          options={SORTS.map((s) => ({ value: s, label: t(`catalog.sort.${s}`) }))}
        />
        <Segmented<CardLayout>
          value={layout}
          onChange={onLayout}
          options={[
            // The hidden text names the radio for screen readers and tests; the tooltip names it for the eye.
            {
              value: 'grid',
              icon: <AppstoreOutlined />,
              label: <span className="hpc-sr-only">{t('catalog.layout.grid')}</span>,
              tooltip: t('catalog.layout.grid'),
            },
            {
              value: 'list',
              icon: <BarsOutlined />,
              label: <span className="hpc-sr-only">{t('catalog.layout.list')}</span>,
              tooltip: t('catalog.layout.list'),
            },
          ]}
        />
      </div>
    </div>
  );
}
