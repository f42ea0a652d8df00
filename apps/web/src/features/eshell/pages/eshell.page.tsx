import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Empty, Input, InputNumber, Select, Skeleton, Space, Tabs, Tooltip } from 'antd';
import { ArrowDownOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RequireSession } from '../../account';
import {
  accountDeactivated,
  ClusterSelect,
  parseServiceList,
  useClusterServiceApi,
  useClusters,
} from '../../clusters';
import { pick } from '../../../shared/i18n/languages';
import { usePreferences } from '../../../shared/preferences/preferences';
import { createEshellApi, type EshellApi } from '../api/eshell.api';
import { TerminalPane, type TerminalHandle } from '../components/terminal-pane';
import { FONT_SIZES, loadFontSize, loadTabs, saveFontSize, saveTabs, type ShellTab } from '../lib/tabs-store';
import '../../../shared/ui/page.css';
import '../eshell.css';

const newKey = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

function EshellPageBody() {
  const { t, i18n } = useTranslation();
  const { theme } = usePreferences();
  const [params, setParams] = useSearchParams();
  const { clusters, isLoading } = useClusters();
  const cluster = clusters.find((c) => c.clusterId === params.get('cluster')) ?? clusters[0];
  // The user's account there is deactivated: said once, as E-File says it, in place of what would only fail.
  const deactivated = accountDeactivated(cluster);
  const clusterId = cluster?.clusterId ?? null;
  const { api, state, service } = useClusterServiceApi(clusterId, 'eshell', createEshellApi);
  const check = useQuery({
    queryKey: ['eshell', 'check', clusterId, service.url],
    queryFn: () => api!.check(),
    enabled: api !== null,
    staleTime: 60_000,
  });
  const served = useMemo(() => new Set(check.data?.nodes ?? []), [check.data]);
  // The centre's login nodes (spec §3 sshAddressList); those the service does not serve are shown, disabled.
  const nodes = useMemo(
    () =>
      parseServiceList(cluster?.params?.sshAddressList).map((n) => ({
        address: n.url,
        usable: n.enabled && served.has(n.url),
      })),
    [cluster, served],
  );
  const [pickedNode, setPickedNode] = useState<string | null>(null);
  const node =
    nodes.find((n) => n.address === pickedNode && n.usable)?.address ??
    nodes.find((n) => n.usable)?.address ??
    null;

  const [tabs, setTabs] = useState<ShellTab[]>(loadTabs);
  const [activeKey, setActiveKey] = useState<string | undefined>(() => loadTabs()[0]?.key);
  const [fontSize, setFontSize] = useState(loadFontSize);
  const [search, setSearch] = useState('');
  const handles = useRef(new Map<string, TerminalHandle>());
  useEffect(() => saveTabs(tabs), [tabs]);

  // One client per cluster and instance a tab lives on.
  const apis = useRef(new Map<string, EshellApi>());
  const apiOf = (tab: ShellTab) => {
    const k = `${tab.clusterId} ${tab.serviceUrl}`;
    let a = apis.current.get(k);
    if (!a) {
      a = createEshellApi(tab.clusterId, tab.serviceUrl);
      apis.current.set(k, a);
    }
    return a;
  };

  const open = useCallback(
    (cwd?: string) => {
      if (!api || !clusterId || !node) return;
      const tab: ShellTab = {
        key: newKey(),
        clusterId,
        serviceUrl: api.baseUrl,
        node,
        ...(cwd ? { cwd } : {}),
      };
      setTabs((list) => [...list, tab]);
      setActiveKey(tab.key);
    },
    [api, clusterId, node],
  );

  // E-File's "open a shell here": /eshell?cluster=…&cwd=… opens one tab there, once.
  const cwd = params.get('cwd');
  useEffect(() => {
    if (!cwd || !api || !node) return;
    open(cwd);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('cwd');
        return next;
      },
      { replace: true },
    );
  }, [cwd, api, node, open, setParams]);

  const close = (key: string) => {
    const tab = tabs.find((x) => x.key === key);
    // A closed tab ends its session at once (not after the detach time).
    if (tab?.sessionId)
      void apiOf(tab)
        .close(tab.sessionId)
        .catch(() => undefined);
    const rest = tabs.filter((x) => x.key !== key);
    setTabs(rest);
    if (activeKey === key) setActiveKey(rest[rest.length - 1]?.key);
  };
  const remember = (key: string) => (sessionId: string) =>
    setTabs((list) => list.map((x) => (x.key === key ? { ...x, sessionId: sessionId || undefined } : x)));

  const findNext = () => {
    if (activeKey) handles.current.get(activeKey)?.findNext(search);
  };

  const centerOf = (id: string) => {
    const c = clusters.find((x) => x.clusterId === id);
    return c ? pick(i18n.language, c.centerName, c.centerNameEn) : id;
  };
  const center = clusterId ? centerOf(clusterId) : '';

  if (isLoading) return <Skeleton active />;
  return (
    <div className="hpc-eshell">
      <div className="hpc-eshell-head">
        <h1 className="hpc-page-title">{t('eshell.title')}</h1>
        {clusters.length > 0 ? (
          <ClusterSelect
            aria-label={t('eshell.cluster')}
            className="hpc-eshell-cluster"
            // Narrow on the toolbar row (a long name ends in an ellipsis); the list shows names in full.
            popupMatchSelectWidth={false}
            clusters={clusters}
            value={clusterId}
            onChange={(id: string) => setParams({ cluster: id })}
            data-testid="eshell-cluster"
          />
        ) : null}
        {api ? (
          <Select
            aria-label={t('eshell.node')}
            className="hpc-eshell-node"
            popupMatchSelectWidth={false}
            value={node}
            onChange={(n: string) => setPickedNode(n)}
            options={nodes.map((n) => ({
              value: n.address,
              disabled: !n.usable,
              label: n.usable ? n.address : t('eshell.nodeUnavailable', { node: n.address }),
            }))}
            data-testid="eshell-node"
          />
        ) : null}
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!api || !node || deactivated}
          onClick={() => open()}
          data-testid="eshell-new"
        >
          {t('eshell.newSession')}
        </Button>
        <div className="hpc-eshell-tools">
          {/* Icon-only "find next", named for screen readers and in its tooltip: the row fits 1440 px in English. */}
          <Space.Compact>
            <Input
              aria-label={t('eshell.search')}
              placeholder={t('eshell.search')}
              className="hpc-eshell-search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onPressEnter={findNext}
              data-testid="eshell-search"
            />
            <Tooltip title={t('eshell.searchNext')}>
              <Button
                type="primary"
                icon={<ArrowDownOutlined />}
                aria-label={t('eshell.searchNext')}
                onClick={findNext}
                data-testid="eshell-search-next"
              />
            </Tooltip>
          </Space.Compact>
          <InputNumber
            aria-label={t('eshell.fontSize')}
            prefix={t('eshell.fontSize')}
            min={FONT_SIZES.min}
            max={FONT_SIZES.max}
            value={fontSize}
            style={{ width: 150 }}
            onChange={(v) => {
              if (typeof v !== 'number') return;
              setFontSize(v);
              saveFontSize(v);
            }}
            data-testid="eshell-font"
          />
        </div>
      </div>
      {clusters.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('eshell.none.noClusters')} />
      ) : null}
      {clusterId && !deactivated && state === 'none' ? (
        <Empty
          data-testid="eshell-none"
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <>
              <strong>{t('eshell.none.title')}</strong>
              <p>{t('eshell.none.text', { center })}</p>
            </>
          }
        />
      ) : null}
      {clusterId && !deactivated && state === 'unreachable' ? (
        <Alert
          type="warning"
          showIcon
          data-testid="eshell-unreachable"
          title={t('eshell.unreachable.title')}
          description={t('eshell.unreachable.text', { center })}
        />
      ) : null}
      {clusterId && deactivated ? (
        <Alert
          type="warning"
          showIcon
          data-testid="eshell-deactivated"
          title={t('eshell.deactivated.title', { centre: center })}
          description={t('eshell.deactivated.text', { account: cluster?.accountDetail?.accountId ?? '' })}
        />
      ) : null}
      {clusterId && !deactivated && state === 'loading' ? <Skeleton active /> : null}
      {tabs.length > 0 ? (
        <Tabs
          type="card"
          activeKey={activeKey}
          onChange={setActiveKey}
          items={tabs.map((tab) => ({
            key: tab.key,
            label: `${centerOf(tab.clusterId)} · ${tab.node}`,
            forceRender: true,
            children: (
              <TerminalPane
                tab={tab}
                api={apiOf(tab)}
                active={tab.key === activeKey}
                fontSize={fontSize}
                theme={theme}
                onSession={remember(tab.key)}
                onClose={() => close(tab.key)}
                onHandle={(h) => {
                  if (h) handles.current.set(tab.key, h);
                  else handles.current.delete(tab.key);
                }}
              />
            ),
          }))}
        />
      ) : state === 'ready' && !deactivated ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('eshell.empty')} />
      ) : null}
    </div>
  );
}

/** /eshell (spec §2 main menu "Command (E-Shell)"): terminals on the clusters' login nodes, in tabs (issue 26 §2). */
export default function EshellPage() {
  return (
    <RequireSession>
      <EshellPageBody />
    </RequireSession>
  );
}
