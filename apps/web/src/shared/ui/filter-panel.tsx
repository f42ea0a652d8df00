import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LabelGroup } from '@hpc/contracts';
import { labelCompare, pick } from '../i18n/languages';

/** An accelerator type or category with its item count. */
export interface FacetOption {
  value: string;
  label: string;
  labelEn: string;
  count?: number;
}

export interface SingleFacet {
  key: string;
  title: string;
  options: FacetOption[];
  value: string;
  onChange: (value: string) => void;
}

interface Props {
  facets: SingleFacet[];
  labelGroups: LabelGroup[] | undefined;
  selectedLabels: string[];
  onToggleLabel: (value: string) => void;
}

function Chip({
  pressed,
  onClick,
  children,
}: {
  pressed: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button type="button" className="hpc-chip" aria-pressed={pressed} onClick={onClick}>
      {children}
    </button>
  );
}

/**
 * The filter side panel (spec §2): single-choice facets (accelerator type, category) and multi-choice label
 * groups, labels in the one order of `labelCompare` (alphabetical, a Han character by its pinyin).
 */
export function FilterPanel({ facets, labelGroups, selectedLabels, onToggleLabel }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const sortedGroups = useMemo(() => {
    const compare = labelCompare(lang);
    const name = (x: { label: string; labelEn: string }) => pick(lang, x.label, x.labelEn);
    return (labelGroups ?? [])
      .filter((g) => g.children.length > 0)
      .map((g) => ({ ...g, children: [...g.children].sort((a, b) => compare(name(a), name(b))) }));
  }, [labelGroups, lang]);

  return (
    <nav className="hpc-filter-panel" aria-label={t('catalog.filter.title')}>
      {facets.map((f) => (
        <section key={f.key} className="hpc-filter-group" aria-label={f.title}>
          <h4>{f.title}</h4>
          <div className="hpc-chips">
            <Chip pressed={!f.value} onClick={() => f.onChange('')}>
              {t('catalog.filter.all')}
            </Chip>
            {f.options.map((o) => (
              <Chip
                key={o.value}
                pressed={f.value === o.value}
                onClick={() => f.onChange(f.value === o.value ? '' : o.value)}
              >
                {pick(lang, o.label, o.labelEn)}
                {o.count !== undefined && <span className="hpc-chip-count">{o.count}</span>}
              </Chip>
            ))}
          </div>
        </section>
      ))}
      {sortedGroups.map((g) => (
        <section key={g.value} className="hpc-filter-group" aria-label={pick(lang, g.label, g.labelEn)}>
          <h4>{pick(lang, g.label, g.labelEn)}</h4>
          <div className="hpc-chips">
            {g.children.map((l) => (
              <Chip
                key={l.value}
                pressed={selectedLabels.includes(l.value)}
                onClick={() => onToggleLabel(l.value)}
              >
                {pick(lang, l.label, l.labelEn)}
              </Chip>
            ))}
          </div>
        </section>
      ))}
    </nav>
  );
}
