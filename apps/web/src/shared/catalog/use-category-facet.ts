import { useMemo } from 'react';
import type { LabelGroup } from '@hpc/contracts';
import type { FacetOption } from '../ui/filter-panel';

/**
 * Models and apps have no category call (spec §7): its categories are the label group whose value is "category"
 * when the portal sends one; otherwise the category filter is left out.
 */
export function useCategoryFacet(groups: LabelGroup[] | undefined): {
  categories: FacetOption[] | undefined;
  labelGroups: LabelGroup[] | undefined;
} {
  return useMemo(() => {
    const cat = groups?.find((g) => g.value === 'category');
    return {
      categories: cat?.children.map((c) => ({ value: c.value, label: c.label, labelEn: c.labelEn })),
      labelGroups: groups?.filter((g) => g !== cat),
    };
  }, [groups]);
}
