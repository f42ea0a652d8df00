import type { ReactNode } from 'react';
import { ClockCircleOutlined, DownloadOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CatalogCard as CatalogCardData } from '@hpc/contracts';
import { pick } from '../i18n/languages';
import { formatCount, formatDate } from '../utils/format';
import { CatalogIcon } from './catalog-icon';
import { LabelTags } from './label-tags';
import '../catalog/catalog.css';

export type CardLayout = 'grid' | 'list';

interface Props {
  item: CatalogCardData;
  to: string;
  layout: CardLayout;
  /** Extra tags beside the version tag: accelerator type, category. */
  badges?: ReactNode;
}

/**
 * One catalogue item (spec §2 card): icon, name, tag, time, downloads, description, labels. The name is the link;
 * CSS stretches it over the card so the whole card is clickable while the link's accessible name stays short.
 */
export function CatalogCard({ item, to, layout, badges }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const name = pick(lang, item.name, item.nameEn);
  const description = pick(lang, item.description, item.descriptionEn);
  return (
    <article className={`hpc-card hpc-card-${layout}`}>
      <div className="hpc-card-head">
        <CatalogIcon src={item.icon} name={name} size={layout === 'list' ? 52 : 44} />
        <div className="hpc-card-title">
          <h3 className="hpc-card-name">
            <Link to={to} className="hpc-stretched-link" title={name}>
              {name}
            </Link>
          </h3>
          <div className="hpc-card-badges">
            {item.tag && (
              <Tag className="hpc-version-tag" color="processing" bordered={false}>
                {item.tag}
              </Tag>
            )}
            {badges}
          </div>
        </div>
      </div>
      <p className="hpc-card-desc" title={description}>
        {description || t('common.noDescription')}
      </p>
      <LabelTags labels={item.labelList} />
      <div className="hpc-card-foot">
        <Tooltip title={t('catalog.card.updated')}>
          <span>
            <ClockCircleOutlined /> {formatDate(item.time, lang)}
          </span>
        </Tooltip>
        <Tooltip title={t('catalog.card.downloads')}>
          <span aria-label={t('catalog.card.downloadsCount', { count: item.downloadCount })}>
            <DownloadOutlined /> {formatCount(item.downloadCount, lang)}
          </span>
        </Tooltip>
      </div>
    </article>
  );
}
