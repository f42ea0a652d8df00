import { useEffect, useState } from 'react';
import { Modal, Spin } from 'antd';
import type { FileEntry } from '@hpc/contracts';
import type { EfileApi } from '../api/efile.api';

/**
 * An image through efile's raw-preview URL in an <img>: an SVG shown this way cannot run script, and the server
 * adds a sandbox CSP besides. Its markup is never put into the page.
 */
export function ImageDialog({
  api,
  entry,
  onClose,
}: {
  api: EfileApi;
  entry: FileEntry;
  onClose: () => void;
}) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    void api.rawPreviewUrl(entry.path).then(setUrl);
  }, [api, entry.path]);
  return (
    <Modal open title={entry.name} footer={null} onCancel={onClose} width="min(1000px, 95vw)">
      <div className="efile-image">
        {url ? <img src={url} alt={entry.name} data-testid="efile-image" /> : <Spin />}
      </div>
    </Modal>
  );
}
