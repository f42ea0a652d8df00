import { memo, useEffect, useState } from 'react';
import { Breadcrumb, Button, Input, Space, Tooltip } from 'antd';
import { ArrowUpOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { searchButton } from '../../../shared/ui/search-button';
import { breadcrumbs, isInsideRoots, normalizeTypedPath } from '../lib/paths';

interface Props {
  path: string;
  roots: string[];
  keyword: string;
  onGo: (path: string) => void;
  onUp: (() => void) | null;
  onRefresh: () => void;
  onSearch: (keyword: string) => void;
  onInvalidPath: () => void;
}

/** Go up, breadcrumb, go to path (validated before any call), search within the folder, refresh. Memoized. */
export const PathBar = memo(function PathBar(p: Props) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(p.path);
  const [kw, setKw] = useState(p.keyword);
  useEffect(() => setTyped(p.path), [p.path]);
  useEffect(() => setKw(p.keyword), [p.keyword]);

  const go = () => {
    const target = normalizeTypedPath(typed);
    if (!target || !isInsideRoots(target, p.roots)) return p.onInvalidPath();
    p.onGo(target);
  };

  return (
    <div className="efile-pathbar">
      <Space.Compact>
        <Tooltip title={t('efile.actions.up')}>
          <Button
            icon={<ArrowUpOutlined />}
            disabled={!p.onUp}
            onClick={() => p.onUp?.()}
            aria-label={t('efile.actions.up')}
          />
        </Tooltip>
        <Tooltip title={t('efile.actions.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            onClick={p.onRefresh}
            aria-label={t('efile.actions.refresh')}
            data-testid="efile-refresh"
          />
        </Tooltip>
      </Space.Compact>
      <Breadcrumb
        className="efile-breadcrumb"
        items={breadcrumbs(p.path, p.roots).map((c, i, all) => ({
          key: c.path,
          title:
            i === all.length - 1 ? (
              c.name
            ) : (
              // No href: focusable and followed with Enter, like a link.
              <a
                role="link"
                tabIndex={0}
                onClick={() => p.onGo(c.path)}
                onKeyDown={(ev) => {
                  if (ev.key !== 'Enter') return;
                  ev.preventDefault();
                  ev.stopPropagation();
                  p.onGo(c.path);
                }}
              >
                {c.name}
              </a>
            ),
        }))}
      />
      <Input
        className="efile-goto"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onPressEnter={go}
        aria-label={t('efile.goto.label')}
        placeholder={t('efile.goto.placeholder')}
        addonAfter={
          <Button type="link" size="small" onClick={go}>
            {t('efile.goto.go')}
          </Button>
        }
        data-testid="efile-goto"
      />
      <Input.Search
        className="efile-search"
        value={kw}
        allowClear
        onChange={(e) => {
          setKw(e.target.value);
          if (!e.target.value) p.onSearch('');
        }}
        onSearch={(v) => p.onSearch(v.trim())}
        placeholder={t('efile.search.placeholder')}
        aria-label={t('efile.search.placeholder')}
        enterButton={searchButton(t('efile.search.button'))}
      />
    </div>
  );
});
