import { CloseOutlined } from '@ant-design/icons';
import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export interface SelectedGroup {
  key: string;
  title: string;
  items: { key: string; label: string; onRemove: () => void }[];
}

/** The chosen conditions as removable tags grouped by type, and a clear-all action (spec §2 filter panel). */
export function SelectedFilters({ groups, onClearAll }: { groups: SelectedGroup[]; onClearAll: () => void }) {
  const { t } = useTranslation();
  const visible = groups.filter((g) => g.items.length > 0);
  if (visible.length === 0) return null;
  return (
    <div className="hpc-selected" aria-label={t('catalog.filter.selected')}>
      {visible.map((g) => (
        <span key={g.key} className="hpc-selected-group">
          <span className="hpc-selected-title">{g.title}:</span>
          {g.items.map((i) => (
            <Tag
              key={i.key}
              closable
              color="processing"
              onClose={(e) => {
                e.preventDefault();
                i.onRemove();
              }}
              closeIcon={
                <CloseOutlined role="button" aria-label={t('catalog.filter.remove', { name: i.label })} />
              }
            >
              {i.label}
            </Tag>
          ))}
        </span>
      ))}
      <Button type="link" size="small" onClick={onClearAll}>
        {t('catalog.filter.clearAll')}
      </Button>
    </div>
  );
}
