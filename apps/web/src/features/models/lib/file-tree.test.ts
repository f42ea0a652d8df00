import { describe, expect, it } from 'vitest';
import { buildFileTree } from './file-tree';

describe('buildFileTree', () => {
  it('nests paths into folders, folders first, sizes summed', () => {
    const tree = buildFileTree([
      { path: 'config.json', size: 10, sha256: 'a' },
      { path: 'examples/serve.slurm', size: 5, sha256: 'b' },
      { path: 'README.md', size: 3, sha256: 'c' },
      { path: 'examples/deep/x.py', size: 2, sha256: 'd' },
    ]);
    expect(tree.map((n) => n.name)).toEqual(['examples', 'README.md', 'config.json']);
    const examples = tree[0]!;
    expect(examples).toMatchObject({ path: 'examples', size: 7, sha256: null });
    expect(examples.children!.map((n) => n.name)).toEqual(['deep', 'serve.slurm']);
    expect(examples.children![0]!.children![0]).toMatchObject({
      path: 'examples/deep/x.py',
      size: 2,
      sha256: 'd',
    });
  });

  it('is empty for a model without files', () => {
    expect(buildFileTree([])).toEqual([]);
  });
});
