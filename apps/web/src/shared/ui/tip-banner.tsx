import type { ReactNode } from 'react';
import { Alert } from 'antd';

/** A quiet hint above content (spec §2 "tip banner"): a title and text, or just the text. */
export function TipBanner({ children, title }: { children: ReactNode; title?: ReactNode }) {
  return (
    <Alert
      className="hpc-tip"
      type="info"
      showIcon
      title={title ?? children}
      description={title ? children : undefined}
    />
  );
}
