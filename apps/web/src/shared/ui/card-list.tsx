import type { ReactNode } from 'react';
import { Skeleton } from 'antd';
import type { CardLayout } from './catalog-card';
import '../catalog/catalog.css';

interface Props<T> {
  items: T[] | undefined;
  layout: CardLayout;
  loading: boolean;
  renderItem: (item: T) => ReactNode;
  itemKey: (item: T) => string | number;
  empty: ReactNode;
  /** Skeleton count while the first page loads. */
  placeholders?: number;
}

/** Cards in a responsive grid or a single column; skeletons while loading, `empty` when nothing matched. */
export function CardList<T>({
  items,
  layout,
  loading,
  renderItem,
  itemKey,
  empty,
  placeholders = 6,
}: Props<T>) {
  const className = `hpc-card-list hpc-card-list-${layout}`;
  if (loading && !items) {
    return (
      <div className={className} aria-busy="true">
        {Array.from({ length: placeholders }, (_, i) => (
          <div key={i} className={`hpc-card hpc-card-${layout}`}>
            <Skeleton avatar active paragraph={{ rows: 2 }} />
          </div>
        ))}
      </div>
    );
  }
  if (!items?.length) return <>{empty}</>;
  return (
    <div className={className} aria-busy={loading}>
      {items.map((item) => (
        <div key={itemKey(item)} className="hpc-card-cell">
          {renderItem(item)}
        </div>
      ))}
    </div>
  );
}
