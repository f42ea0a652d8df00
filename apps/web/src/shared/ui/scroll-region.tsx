import type { ReactNode } from 'react';
import './scroll-region.css';

/**
 * A table or other wide content that scrolls sideways on a narrow screen, reachable from the keyboard: a named,
 * focusable region (axe's scrollable-region-focusable), since arrow keys scroll only what has focus. Ant Design's
 * own `scroll={{ x }}` adds an aria-hidden measuring row that can hold focusable cells (aria-hidden-focus) and a
 * scroller nobody can focus, so wide tables use this wrapper instead.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="hpc-scroll-region" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
