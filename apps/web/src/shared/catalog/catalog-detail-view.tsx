import type { ReactNode } from 'react';
import { ClockCircleOutlined, DownloadOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Card, Descriptions, Skeleton, Tag, type DescriptionsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { CatalogCard } from '@hpc/contracts';
import { pick } from '../i18n/languages';
import { formatCount, formatDate } from '../utils/format';
import { CatalogIcon } from '../ui/catalog-icon';
import { EmptyState } from '../ui/empty-state';
import { LabelTags } from '../ui/label-tags';
import type { CatalogKind } from './catalog-list-view';
import './catalog.css';

interface Props {
  kind: CatalogKind;
  listPath: string;
  item: CatalogCard | undefined;
  loading: boolean;
  /** Accelerator type, category: shown beside the version tag. */
  badges?: ReactNode;
  /** Above the description, e.g. a tip banner. */
  tip?: ReactNode;
  /** The description viewer. */
  children: ReactNode;
  /** Side column: usage command, facts, actions. */
  aside: ReactNode;
}

/** Detail page of a catalogue item: breadcrumb, header card, description and a side column. */
export function CatalogDetailView({ kind, listPath, item, loading, badges, tip, children, aside }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const lang = i18n.language;
  const listLink = <Link to={listPath}>{t(`${kind}.list.title`)}</Link>;

  if (loading && !item) {
    return (
      <div className="hpc-detail">
        <Card>
          <Skeleton avatar active paragraph={{ rows: 3 }} />
        </Card>
      </div>
    );
  }
  if (!item) {
    return (
      <div className="hpc-detail">
        <EmptyState description={t('catalog.detail.notFound')}>
          <Button type="primary" onClick={() => void navigate(listPath)}>
            {t('catalog.detail.backToList')}
          </Button>
        </EmptyState>
      </div>
    );
  }

  const name = pick(lang, item.name, item.nameEn);
  // The Chinese page names an entry's English name under its title; the English page stays English (issue 25 §3.7).
  const otherName = lang === 'en-US' ? '' : item.nameEn;
  return (
    <div className="hpc-detail">
      <Breadcrumb className="hpc-breadcrumb" items={[{ title: listLink }, { title: name }]} />
      <Card className="hpc-detail-head" variant="borderless">
        <div className="hpc-detail-head-row">
          <CatalogIcon src={item.icon} name={name} size={72} />
          <div className="hpc-detail-title">
            <h1>
              {name}
              {item.tag && (
                <Tag className="hpc-version-tag" color="processing" bordered={false}>
                  {item.tag}
                </Tag>
              )}
              {badges}
            </h1>
            {otherName && otherName !== name && <div className="hpc-detail-subname">{otherName}</div>}
            <p className="hpc-detail-desc">{pick(lang, item.description, item.descriptionEn)}</p>
            <LabelTags labels={item.labelList} max={Number.POSITIVE_INFINITY} />
            <div className="hpc-detail-meta">
              <span>
                <ClockCircleOutlined /> {t('catalog.card.updated')}
                {t('common.colon')}
                {formatDate(item.time, lang)}
              </span>
              <span>
                <DownloadOutlined /> {t('catalog.card.downloads')}
                {t('common.colon')}
                {formatCount(item.downloadCount, lang)}
              </span>
            </div>
          </div>
        </div>
      </Card>
      <div className="hpc-detail-body">
        <main className="hpc-detail-main">
          {tip}
          <Card title={t('catalog.detail.introduction')} variant="borderless">
            {children}
          </Card>
        </main>
        <aside className="hpc-detail-side">{aside}</aside>
      </div>
    </div>
  );
}

/** The side column's facts of a catalogue item (name, category, version…): one label and value a line. */
export function CatalogInfoCard({ items }: { items: DescriptionsProps['items'] }) {
  const { t } = useTranslation();
  return (
    <Card title={t('catalog.detail.info')} variant="borderless">
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}
