import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CatalogLabel } from '@hpc/contracts';
import { Limits } from '@hpc/contracts';
import { labelCompare, pick } from '../i18n/languages';
import '../catalog/catalog.css';

/**
 * Up to `max` labels (spec §9: 8), then a "+N" tag whose tooltip lists the rest; in the order of the filter panel
 * (`labelCompare`).
 */
export function LabelTags({ labels, max = Limits.labelsPerCard }: { labels: CatalogLabel[]; max?: number }) {
  const { i18n } = useTranslation();
  if (labels.length === 0) return null;
  const name = (l: CatalogLabel) => pick(i18n.language, l.label, l.labelEn);
  const compare = labelCompare(i18n.language);
  const sorted = [...labels].sort((a, b) => compare(name(a), name(b)));
  const shown = sorted.slice(0, max);
  const rest = sorted.slice(max);
  return (
    <div className="hpc-labels">
      {shown.map((l) => (
        <Tag key={`${l.group}/${l.value}`} className="hpc-label" bordered={false}>
          {name(l)}
        </Tag>
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.map(name).join(' · ')}>
          <Tag className="hpc-label hpc-label-more" bordered={false} tabIndex={0}>
            +{rest.length}
          </Tag>
        </Tooltip>
      )}
    </div>
  );
}
