import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Input, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { session, StorageKeys } from '../../shared/utils/storage';
import { LIST_PATH, type Section } from '../routes';
import { useSection } from './use-section';
import { searchButton } from '../../shared/ui/search-button';

/** Search targets: the catalogue of the current section; elsewhere the application centre (full-site search). */
const TARGET: Record<Section, 'images' | 'models' | 'apps'> = {
  dashboard: 'apps',
  jobs: 'apps',
  eshell: 'apps',
  home: 'apps',
  images: 'images',
  models: 'models',
  apps: 'apps',
  efile: 'apps',
  other: 'apps',
};

/** The box never grows past this, whatever a translation's length. */
const MAX_WIDTH_PX = 360;

/**
 * Widths of `texts` as the browser lays them out in `like`'s font (a hidden span: a canvas measured a few pixels
 * short of the input's own rendering, enough for an ellipsis).
 */
function textWidths(texts: string[], like: HTMLElement): number[] {
  const s = getComputedStyle(like);
  const span = document.createElement('span');
  span.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;left:-9999px;top:0';
  span.style.font = s.font;
  span.style.letterSpacing = s.letterSpacing;
  document.body.appendChild(span);
  const widths = texts.map((text) => {
    span.textContent = text;
    return span.getBoundingClientRect().width;
  });
  span.remove();
  return widths;
}

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
  // Wide enough for the longest placeholder of the language, so none is cut (issue 13 §1.7) and the box keeps one
  // width from section to section: measured in the input's own font, plus what the box has around its text
  // (padding, the clear icon's place, the search button), before the browser paints.
  const input = useRef<InputRef>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    const el = input.current?.input;
    const outer = el?.closest('.hpc-header-search');
    if (!el || !(outer instanceof HTMLElement)) return;
    const s = getComputedStyle(el);
    const text = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    const chrome = outer.getBoundingClientRect().width - text;
    const placeholders = (['apps', 'images', 'models'] as const).map((k) => t(`${k}.list.placeholder`));
    const longest = Math.max(...textWidths(placeholders, el));
    // A few pixels more than the text: the input keeps room for its caret after the last character.
    setWidth(Math.min(MAX_WIDTH_PX, Math.ceil(longest + chrome) + 6));
  }, [t]);

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
      style={width ? { width } : undefined}
      ref={input}
      placeholder={t(`${target}.list.placeholder`)}
      aria-label={t(`${target}.list.placeholder`)}
      allowClear
      enterButton={searchButton(t('common.search'))}
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
