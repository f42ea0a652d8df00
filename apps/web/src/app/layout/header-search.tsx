import { useEffect, useState } from 'react';
import { Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { session, StorageKeys } from '../../shared/utils/storage';
import { LIST_PATH, type Section } from '../routes';
import { useSection } from './use-section';

/** Search targets: the catalogue of the current section; elsewhere the application centre (full-site search). */
const TARGET: Record<Section, 'images' | 'models' | 'apps'> = {
  home: 'apps',
  images: 'images',
  models: 'models',
  apps: 'apps',
  efile: 'apps',
  other: 'apps',
};

/**
 * The header search of spec §2: Enter, the search icon, or clearing the box runs the search. The query is kept in
 * sessionStorage and as `keyword` in the list's address; searching from a detail page goes back to the list.
 */
export function HeaderSearch() {
  const { t } = useTranslation();
  const section = useSection();
  const target = TARGET[section];
  const listPath = LIST_PATH[section];
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const onList = pathname === listPath;
  const urlKeyword = onList ? (params.get('keyword') ?? '') : null;
  const [value, setValue] = useState(() => urlKeyword ?? session.get(StorageKeys.search(target)) ?? '');

  // The address is the truth on a list page (back/forward, removing the keyword tag); elsewhere the session.
  useEffect(() => {
    setValue(urlKeyword ?? session.get(StorageKeys.search(target)) ?? '');
  }, [urlKeyword, target]);

  const run = (raw: string) => {
    const keyword = raw.trim();
    session.set(StorageKeys.search(target), keyword);
    const next = new URLSearchParams(onList ? params : undefined);
    if (keyword) next.set('keyword', keyword);
    else next.delete('keyword');
    next.delete('page'); // a new query starts on its first page
    const qs = next.toString();
    void navigate(`${listPath}${qs ? `?${qs}` : ''}`);
  };

  return (
    <Input.Search
      className="hpc-header-search"
      placeholder={t(`${target}.list.placeholder`)}
      aria-label={t(`${target}.list.placeholder`)}
      allowClear
      value={value}
      maxLength={200}
      onChange={(e) => {
        const next = e.target.value;
        setValue(next);
        // Deleting all the text runs the search too, like the clear icon (handled below).
        if (next === '' && value !== '') run('');
      }}
      onSearch={(v, _e, info) => {
        // The clear icon also fires onChange('') above: run once.
        if (info?.source !== 'clear') run(v);
      }}
    />
  );
}
