import { useCallback, useEffect, useState } from 'react';
import { Modal, Tree, type TreeDataNode } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../shared/api/notify';
import type { EfileApi } from '../../efile';

const toNodes = (list: { name: string; path: string; isLeaf: boolean }[]): TreeDataNode[] =>
  list.map((n) => ({ key: n.path, title: n.name, isLeaf: n.isLeaf }));

function withChildren(nodes: TreeDataNode[], key: string, children: TreeDataNode[]): TreeDataNode[] {
  return nodes.map((n) =>
    n.key === key
      ? { ...n, children, isLeaf: children.length === 0 }
      : n.children
        ? { ...n, children: withChildren(n.children, key, children) }
        : n,
  );
}

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
  const [nodes, setNodes] = useState<TreeDataNode[]>([]);
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => {
    api.tree().then((r) => setNodes(toNodes(r.list)), notifyError);
  }, [api]);
  const load = useCallback(
    async (node: TreeDataNode) => {
      if (node.children) return;
      try {
        const r = await api.tree(String(node.key));
        setNodes((prev) => withChildren(prev, String(node.key), toNodes(r.list)));
      } catch (e) {
        notifyError(e);
      }
    },
    [api],
  );
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
