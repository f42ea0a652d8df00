import { useState } from 'react';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CatalogSort } from '@hpc/contracts';
import type { CatalogKind } from '../../../shared/catalog/catalog-list-view';
import { CardList } from '../../../shared/ui/card-list';
import { CatalogCard } from '../../../shared/ui/catalog-card';
import { EmptyState } from '../../../shared/ui/empty-state';
import { useHomeItems } from '../hooks/use-home-items';

const KINDS: CatalogKind[] = ['images', 'models', 'apps'];
const LIST_PATH: Record<CatalogKind, string> = {
  images: '/service-list',
  models: '/model-zoo/list',
  apps: '/full-site-list',
};

/** "Newest" or "most downloaded" items of one catalogue at a time, with a link to the whole sorted list. */
export function ItemStrip({ sort }: { sort: CatalogSort }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<CatalogKind>('images');
  const { data, isLoading } = useHomeItems(kind, sort);
  const more = `${LIST_PATH[kind]}${sort === 'newest' ? '' : `?sort=${sort}`}`;
  return (
    <section className="hpc-strip" aria-labelledby={`strip-${sort}`}>
      <div className="hpc-strip-head">
        <h2 id={`strip-${sort}`}>{t(`home.strip.${sort}`)}</h2>
        <Segmented<CatalogKind>
          value={kind}
          onChange={setKind}
          options={KINDS.map((k) => ({ value: k, label: t(`home.entries.${k}.title`) }))}
        />
        <Link to={more} className="hpc-strip-more">
          {t('home.strip.more')}
        </Link>
      </div>
      <CardList
        items={data?.items}
        layout="grid"
        loading={isLoading}
        placeholders={4}
        itemKey={(i) => i.card.id}
        renderItem={(i) => <CatalogCard item={i.card} to={i.to} layout="grid" />}
        empty={<EmptyState />}
      />
    </section>
  );
}
