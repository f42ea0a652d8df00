import { useCallback, type ReactNode } from 'react';
import { Alert, App, Button, Pagination } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CatalogCard as CardData, LabelGroup } from '@hpc/contracts';
import type { PageOf } from '@hpc/api-client';
import { pick } from '../i18n/languages';
import { session, StorageKeys } from '../utils/storage';
import { useOnline } from '../utils/use-online';
import { CardList } from '../ui/card-list';
import { CatalogCard } from '../ui/catalog-card';
import { EmptyState } from '../ui/empty-state';
import { FilterPanel, type FacetOption, type SingleFacet } from '../ui/filter-panel';
import { SelectedFilters, type SelectedGroup } from '../ui/selected-filters';
import { PAGE_SIZES, type ListState } from './list-state';
import { ListToolbar } from './list-toolbar';
import { useCardLayout } from './use-card-layout';
import './catalog.css';

export type CatalogKind = 'images' | 'models' | 'apps';

export interface CatalogListViewProps<T extends CardData> {
  kind: CatalogKind;
  state: ListState;
  update: (patch: Partial<ListState>) => void;
  page: PageOf<T> | undefined;
  loading: boolean;
  accelerators?: FacetOption[];
  categories?: FacetOption[];
  labelGroups?: LabelGroup[];
  detailPath: (item: T) => string;
  badges?: (item: T) => ReactNode;
}

const optionName = (options: FacetOption[] | undefined, value: string, lang: string) => {
  const o = options?.find((x) => x.value === value);
  return o ? pick(lang, o.label, o.labelEn) : value;
};

/** A catalogue list page: title, filter panel, selected conditions, toolbar, cards and pagination. */
export function CatalogListView<T extends CardData>(props: CatalogListViewProps<T>) {
  const { kind, state, page, loading, accelerators, categories, labelGroups } = props;
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [layout, setLayout] = useCardLayout();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const online = useOnline();
  const changeOnline = props.update;
  // Offline, a new filter would be marked as chosen over the results of the old one (the query waits for the
  // network): the change is refused and the user told why (issue 13 §1.6).
  const update = useCallback(
    (patch: Partial<ListState>) => {
      if (!navigator.onLine) {
        void message.warning({ content: t('catalog.offline.refused'), key: 'catalog-offline' });
        return;
      }
      changeOnline(patch);
    },
    [changeOnline, message, t],
  );
  const retry = () => void qc.refetchQueries({ queryKey: [kind, 'list'], type: 'active' });

  const facets: SingleFacet[] = [];
  if (accelerators) {
    facets.push({
      key: 'acceleratorType',
      title: t('catalog.filter.acceleratorType'),
      options: accelerators,
      value: state.acceleratorType,
      // Labels and categories depend on the accelerator type: drop them when it changes.
      onChange: (v) => update({ acceleratorType: v, category: '', labels: [] }),
    });
  }
  if (categories) {
    facets.push({
      key: 'category',
      title: t('catalog.filter.category'),
      options: categories,
      value: state.category,
      onChange: (v) => update({ category: v }),
    });
  }

  const labelIndex = new Map(
    (labelGroups ?? []).flatMap((g) => g.children.map((l) => [l.value, { l, g }] as const)),
  );
  const toggleLabel = (v: string) =>
    update({ labels: state.labels.includes(v) ? state.labels.filter((x) => x !== v) : [...state.labels, v] });
  const clearKeyword = () => {
    session.set(StorageKeys.search(kind), '');
    update({ keyword: '' });
  };

  // Selected labels grouped by their label group; a label the panel does not know (yet) goes under "labels".
  const labelGroupsSelected = new Map<string, SelectedGroup>();
  for (const v of state.labels) {
    const hit = labelIndex.get(v);
    const key = hit?.g.value ?? '_labels';
    const group = labelGroupsSelected.get(key) ?? {
      key: `label:${key}`,
      title: hit ? pick(lang, hit.g.label, hit.g.labelEn) : t('catalog.filter.labels'),
      items: [],
    };
    group.items.push({
      key: v,
      label: hit ? pick(lang, hit.l.label, hit.l.labelEn) : v,
      onRemove: () => toggleLabel(v),
    });
    labelGroupsSelected.set(key, group);
  }
  const selected: SelectedGroup[] = [
    {
      key: 'keyword',
      title: t('catalog.filter.keyword'),
      items: state.keyword ? [{ key: 'k', label: state.keyword, onRemove: clearKeyword }] : [],
    },
    {
      key: 'acceleratorType',
      title: t('catalog.filter.acceleratorType'),
      items: state.acceleratorType
        ? [
            {
              key: 'a',
              label: optionName(accelerators, state.acceleratorType, lang),
              onRemove: () => update({ acceleratorType: '', category: '', labels: [] }),
            },
          ]
        : [],
    },
    {
      key: 'category',
      title: t('catalog.filter.category'),
      items: state.category
        ? [
            {
              key: 'c',
              label: optionName(categories, state.category, lang),
              onRemove: () => update({ category: '' }),
            },
          ]
        : [],
    },
    ...labelGroupsSelected.values(),
  ];
  const clearAll = () => {
    session.set(StorageKeys.search(kind), '');
    update({ keyword: '', acceleratorType: '', category: '', labels: [] });
  };

  return (
    <div className="hpc-catalog">
      <header className="hpc-page-head">
        <h1>{t(`${kind}.list.title`)}</h1>
        <p>{t(`${kind}.list.subtitle`)}</p>
      </header>
      <div className="hpc-catalog-body">
        <aside className="hpc-catalog-side">
          <FilterPanel
            facets={facets}
            labelGroups={labelGroups}
            selectedLabels={state.labels}
            onToggleLabel={toggleLabel}
          />
        </aside>
        <section className="hpc-catalog-main" aria-label={t(`${kind}.list.title`)}>
          {!online && (
            <Alert
              className="hpc-catalog-offline"
              data-testid="catalog-offline"
              type="warning"
              showIcon
              title={t('catalog.offline.title')}
              description={t('catalog.offline.text')}
            />
          )}
          <SelectedFilters groups={selected} onClearAll={clearAll} />
          <ListToolbar
            total={page?.total}
            sort={state.sort}
            onSort={(sort) => update({ sort })}
            layout={layout}
            onLayout={setLayout}
          />
          <CardList
            items={page?.list}
            layout={layout}
            loading={loading}
            itemKey={(i) => i.id}
            renderItem={(item) => (
              <CatalogCard
                item={item}
                layout={layout}
                to={props.detailPath(item)}
                badges={props.badges?.(item)}
              />
            )}
            empty={
              // No page and nothing loading: the list call failed (its message was shown), not "nothing matched".
              page === undefined && !loading ? (
                <EmptyState description={t('catalog.listError.text')}>
                  <Button onClick={retry}>{t('catalog.listError.retry')}</Button>
                </EmptyState>
              ) : (
                <EmptyState description={t('catalog.list.empty')} />
              )
            }
          />
          {page && page.total > 0 && (
            <Pagination
              className="hpc-pagination"
              current={state.page}
              pageSize={state.size}
              total={page.total}
              pageSizeOptions={PAGE_SIZES.map(String)}
              showSizeChanger
              showTotal={(total) => t('catalog.list.total', { count: total })}
              onChange={(p, size) => (size !== state.size ? update({ size }) : update({ page: p }))}
            />
          )}
        </section>
      </div>
    </div>
  );
}
