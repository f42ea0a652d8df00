import { useCallback, useState } from 'react';
import type { CardLayout } from '../ui/catalog-card';
import { local, StorageKeys } from '../utils/storage';

/** Grid or list, remembered across visits and shared by the three catalogues. */
export function useCardLayout(): [CardLayout, (l: CardLayout) => void] {
  const [layout, setLayout] = useState<CardLayout>(() =>
    local.get(StorageKeys.cardLayout) === 'list' ? 'list' : 'grid',
  );
  const set = useCallback((l: CardLayout) => {
    local.set(StorageKeys.cardLayout, l);
    setLayout(l);
  }, []);
  return [layout, set];
}
