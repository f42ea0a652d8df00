import { useCallback, useEffect, useState } from 'react';
import type { TreeDataNode } from 'antd';
import { notifyError } from '../../../shared/api/notify';
import type { EfileApi } from '../api/efile.api';

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

/**
 * A lazy tree of the user's folders for an Ant Design `Tree`: the top level at once, a folder's children when it is
 * opened (one `/treeChildrenList.action` each); a failure is reported and leaves the tree as it was.
 */
export function useFolderTree(api: EfileApi) {
  const [nodes, setNodes] = useState<TreeDataNode[]>([]);
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
  return { nodes, load };
}
