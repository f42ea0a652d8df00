import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { App, Button, Modal, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '@hpc/contracts';
import { notifyError } from '../../../shared/api/notify';
import type { EfileApi } from '../api/efile.api';
import { formatSizeExact } from '../../../shared/utils/format-size';

const CodeEditor = lazy(() => import('./code-editor'));

interface Props {
  api: EfileApi;
  entry: FileEntry;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * A text file in CodeMirror (the server's size and type checks ran before this opened). Save with the button or
 * Ctrl/Cmd+S; the file's modify time travels with the save so a change made elsewhere is not overwritten blindly;
 * closing with unsaved changes asks first.
 */
export function EditorDialog({ api, entry, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [text, setText] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const [saving, setSaving] = useState(false);
  /** The file's size as the server last told it: the listing's figure is stale once the file is read or saved. */
  const [size, setSize] = useState(entry.size);
  const mtime = useRef<number | undefined>(undefined);
  const current = useRef('');

  useEffect(() => {
    let live = true;
    api.previewText(entry.path).then(
      (r) => {
        if (!live) return;
        mtime.current = r.mtime;
        setSize(r.size);
        current.current = r.content;
        setText(r.content);
        setSaved(r.content);
      },
      (e: unknown) => {
        notifyError(e);
        onClose();
      },
    );
    return () => {
      live = false;
    };
  }, [api, entry.path, onClose]);

  const dirty = text !== null && text !== saved;

  const save = useCallback(async () => {
    const content = current.current;
    setSaving(true);
    try {
      await api.editText(entry.path, content, mtime.current);
      // The next save compares with the time of this one.
      const check = await api.previewCheck(entry.path).catch(() => null);
      mtime.current = check?.mtime;
      // Without the check's answer, the bytes just written (UTF-8, as the server stores the text).
      setSize(check?.size ?? new TextEncoder().encode(content).length);
      setSaved(content);
      void message.success(t('efile.editor.saved'));
      onSaved();
    } catch (e) {
      notifyError(e);
    } finally {
      setSaving(false);
    }
  }, [api, entry.path, message, t, onSaved]);

  const close = () => {
    if (!dirty) return onClose();
    modal.confirm({
      title: t('efile.editor.unsavedTitle'),
      content: t('efile.editor.unsaved'),
      okText: t('efile.editor.discard'),
      cancelText: t('efile.cancel'),
      okType: 'danger',
      onOk: onClose,
    });
  };

  return (
    <Modal
      open
      width="min(1100px, 95vw)"
      title={
        <span>
          {entry.name} <span className="efile-dim">{formatSizeExact(size)}</span>
          {dirty && <span className="efile-dirty"> ● {t('efile.editor.modified')}</span>}
        </span>
      }
      onCancel={close}
      maskClosable={false}
      footer={[
        <Button key="close" onClick={close}>
          {t('efile.close')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={saving}
          disabled={!dirty}
          onClick={() => void save()}
          data-testid="efile-editor-save"
        >
          {t('efile.editor.save')}
        </Button>,
      ]}
    >
      {text === null ? (
        <Spin />
      ) : (
        <Suspense fallback={<Spin />}>
          <CodeEditor
            fileName={entry.name}
            value={text}
            onChange={(v) => {
              current.current = v;
              setText(v);
            }}
            onSave={() => void save()}
          />
        </Suspense>
      )}
    </Modal>
  );
}
