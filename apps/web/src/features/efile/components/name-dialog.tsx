import { useEffect, useState } from 'react';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { Limits, type FileEntry } from '@hpc/contracts';
import { notifyError } from '../../../shared/api/notify';
import type { EfileApi } from '../api/efile.api';
import { joinPath } from '../lib/paths';
import { nameProblem } from '../lib/validate-name';

interface Props {
  api: EfileApi;
  dir: string;
  /** Rename this entry; create a file or folder when absent. */
  entry?: FileEntry;
  createType?: 'file' | 'folder';
  onClose: () => void;
  onDone: (path: string) => void;
}

/**
 * Create a file or folder, or rename (spec §5: not blank, at most 70 characters, no "/", "Name not modified!").
 * Renaming a shared item, or a folder holding shared items, warns first that those links stop working.
 */
export function NameDialog({ api, dir, entry, createType, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [name, setName] = useState(entry?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [shared, setShared] = useState(false);

  useEffect(() => {
    if (!entry) return;
    let live = true;
    api.isIncludeShareFile([entry.path]).then(
      (r) => live && setShared(r.include),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, entry]);

  const submit = async () => {
    const problem = nameProblem(name, { original: entry?.name });
    if (problem) return setError(t(`efile.validation.${problem}`, { max: Limits.nameMaxLength }));
    setBusy(true);
    try {
      const r = entry
        ? await api.rename(entry.path, name)
        : createType === 'folder'
          ? await api.mkdir(joinPath(dir, name))
          : await api.touch(joinPath(dir, name));
      void message.success(t(entry ? 'efile.rename.done' : 'efile.create.done'));
      onDone(r.path);
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  };

  const title = entry
    ? t('efile.rename.title')
    : t(createType === 'folder' ? 'efile.create.folder' : 'efile.create.file');
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('efile.ok')}
      cancelText={t('efile.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      {shared && (
        <Alert
          className="efile-dialog-alert"
          type="warning"
          showIcon
          title={t('efile.rename.sharedWarning')}
        />
      )}
      <Form layout="vertical" component={false}>
        <Form.Item
          label={t('efile.name.label')}
          htmlFor="efile-name-input"
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          <Input
            autoFocus
            id="efile-name-input"
            value={name}
            data-testid="efile-name-input"
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
            onPressEnter={() => void submit()}
            placeholder={t('efile.name.placeholder')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
