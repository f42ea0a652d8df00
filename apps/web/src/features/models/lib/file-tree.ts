import type { ModelFile } from '@hpc/contracts';

/** A row of the file view: a folder (with children and the sum of their sizes) or a file. */
export interface FileTreeNode {
  key: string;
  name: string;
  path: string;
  size: number;
  sha256: string | null;
  children?: FileTreeNode[];
}

/**
 * The flat file list of a model → a tree as Hugging Face shows it: folders first, then files, each by name; a
 * folder's size is the sum of what it holds.
 */
export function buildFileTree(files: readonly ModelFile[]): FileTreeNode[] {
  const root: FileTreeNode = { key: '', name: '', path: '', size: 0, sha256: null, children: [] };
  for (const f of files) {
    const segs = f.path.split('/');
    let node = root;
    segs.slice(0, -1).forEach((seg, i) => {
      const p = segs.slice(0, i + 1).join('/');
      let next = node.children!.find((c) => c.children && c.name === seg);
      if (!next) {
        next = { key: `${p}/`, name: seg, path: p, size: 0, sha256: null, children: [] };
        node.children!.push(next);
      }
      next.size += f.size;
      node = next;
    });
    node.children!.push({
      key: f.path,
      name: segs[segs.length - 1]!,
      path: f.path,
      size: f.size,
      sha256: f.sha256,
    });
  }
  const order = (nodes: FileTreeNode[]): FileTreeNode[] =>
    nodes
      .sort(
        (a, b) =>
          Number(!a.children) - Number(!b.children) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
      )
      .map((n) => (n.children ? { ...n, children: order(n.children) } : n));
  return order(root.children!);
}
