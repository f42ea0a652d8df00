import { useState } from 'react';
import { App, Modal, Tree } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@hpc/api-client';
import { FileCodes } from '@hpc/contracts';
import { notifyError } from '../../../shared/api/notify';
import type { EfileApi } from '../api/efile.api';
import { useFolderTree } from '../hooks/use-folder-tree';
import { baseName } from '../lib/paths';

interface Props {
  api: EfileApi;
  mode: 'copy' | 'move';
  paths: string[];
  onClose: () => void;
  /** The operation started on the server; the page shows its progress. */
  onStarted: (operationId: string, mode: 'copy' | 'move') => void;
}

/**
 * Copy or move into a folder chosen in a lazy tree (one `/treeChildrenList.action` per opened folder). The first
 * request never overwrites; when the target has same-named items the user is asked, and only a yes sends `cover`.
 * One operation per user runs at a time: the server's OPERATION_LIMIT answer is the "retry later" message.
 */
export function CopyMoveDialog({ api, mode, paths, onClose, onStarted }: Props) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { nodes, load } = useFolderTree(api);
  const [target, setTarget] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async (cover: boolean) => {
    if (!target) return;
    setBusy(true);
    try {
      const r = await api.copyMove(mode, paths, target, cover);
      onStarted(r.operationId, mode);
    } catch (e) {
      if (
        !cover &&
        isApiError(e) &&
        (e.code === FileCodes.sameNameFile || e.code === FileCodes.sameNameDir)
      ) {
        const conflicts = ((e.data as { conflicts?: string[] } | null)?.conflicts ?? []).map(baseName);
        modal.confirm({
          title: t('efile.copyMove.overwriteTitle'),
          content: t('efile.copyMove.overwriteConfirm', { names: conflicts.join(', ') }),
          okText: t('efile.copyMove.overwrite'),
          cancelText: t('efile.cancel'),
          okType: 'danger',
          onOk: () => start(true),
        });
      } else if (isApiError(e) && e.code === FileCodes.operationLimit) {
        modal.warning({ title: t('efile.copyMove.limit'), okText: t('efile.ok') });
      } else notifyError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t(`efile.copyMove.${mode}Title`, { count: paths.length })}
      onCancel={onClose}
      onOk={() => void start(false)}
      okText={t(`efile.actions.${mode}`)}
      cancelText={t('efile.cancel')}
      okButtonProps={{ disabled: !target }}
      confirmLoading={busy}
    >
      <p className="efile-dialog-hint">
        {target ? t('efile.copyMove.target', { path: target }) : t('efile.copyMove.choose')}
      </p>
      <div className="efile-tree" data-testid="efile-tree">
        <Tree
          treeData={nodes}
          loadData={load}
          onSelect={(keys) => setTarget(keys[0] ? String(keys[0]) : null)}
          selectedKeys={target ? [target] : []}
          showLine
        />
      </div>
    </Modal>
  );
}
