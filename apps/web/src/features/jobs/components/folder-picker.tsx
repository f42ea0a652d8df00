import { useState } from 'react';
import { Modal, Tree } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFolderTree, type EfileApi } from '../../efile';

/** The working directory picked from E-File: a lazy tree of the user's folders (one call per opened folder). */
export function FolderPicker({
  api,
  onPick,
  onClose,
}: {
  api: EfileApi;
  onPick: (path: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { nodes, load } = useFolderTree(api);
  const [target, setTarget] = useState<string | null>(null);
  return (
    <Modal
      open
      title={t('jobs.picker.title')}
      okText={t('jobs.picker.choose')}
      okButtonProps={{ disabled: !target }}
      onOk={() => target && onPick(target)}
      onCancel={onClose}
    >
      <Tree
        treeData={nodes}
        loadData={load}
        onSelect={(keys) => setTarget(keys[0] ? String(keys[0]) : null)}
        data-testid="folder-picker"
      />
    </Modal>
  );
}
