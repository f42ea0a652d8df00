import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Button, Checkbox, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConflictAnswer, ConflictChoice } from './upload-add';

interface Pending {
  name: string;
  isDirectory: boolean;
}

/**
 * The question asked when an uploaded name exists at the target: overwrite, keep both (a renamed copy) or skip,
 * for this one or for all remaining. Returns the asking function and the dialog to render.
 */
export function useConflictPrompt(): [
  (name: string, isDirectory: boolean) => Promise<ConflictAnswer>,
  ReactNode,
] {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Pending | null>(null);
  const [all, setAll] = useState(false);
  const resolver = useRef<((a: ConflictAnswer) => void) | null>(null);

  const ask = useCallback(
    (name: string, isDirectory: boolean) =>
      new Promise<ConflictAnswer>((resolve) => {
        resolver.current = resolve;
        setAll(false);
        setPending({ name, isDirectory });
      }),
    [],
  );
  const answer = (choice: ConflictChoice) => {
    resolver.current?.({ choice, all });
    resolver.current = null;
    setPending(null);
  };

  const dialog = pending ? (
    <Modal
      open
      title={t('efile.upload.conflict.title')}
      onCancel={() => answer('skip')}
      footer={[
        <Checkbox
          key="all"
          checked={all}
          onChange={(e) => setAll(e.target.checked)}
          className="efile-conflict-all"
        >
          {t('efile.upload.conflict.all')}
        </Checkbox>,
        <Button key="skip" onClick={() => answer('skip')}>
          {t('efile.upload.conflict.skip')}
        </Button>,
        <Button key="keep" onClick={() => answer('keepBoth')}>
          {t('efile.upload.conflict.keepBoth')}
        </Button>,
        <Button key="over" type="primary" danger onClick={() => answer('overwrite')}>
          {t('efile.upload.conflict.overwrite')}
        </Button>,
      ]}
    >
      {t(pending.isDirectory ? 'efile.upload.conflict.folderExists' : 'efile.upload.conflict.fileExists', {
        name: pending.name,
      })}
    </Modal>
  ) : null;
  return [ask, dialog];
}
