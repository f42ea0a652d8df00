import { describe, expect, it } from 'vitest';
import { Limits } from '@hpc/contracts';
import { demoItems } from './demo-bundle';
import { APPS, parseSeed } from './seed-data';
import { Type } from 'typebox';

/** The demo must show every widget of spec §2 and contain no slips (issue 25 §3.9). */
describe('the demo catalogue', () => {
  const items = demoItems().map((d) => d.item);

  it('has an entry with more labels than a card shows, so the "+N" tooltip appears', () => {
    expect(Math.max(...items.map((i) => i.labels.length))).toBeGreaterThan(Limits.labelsPerCard);
  });

  it('says what each image runs on: a GPU or DCU image never says CPU, and a CUDA image its version', () => {
    for (const i of items.filter((x) => x.kind === 'image' && x.accelerator_type !== 'CPU')) {
      expect(i.description, i.name).not.toMatch(/节点\(CPU/);
      expect(i.description_en, i.name_en).not.toMatch(/nodes \(CPU/);
    }
    const cuda = items.find((i) => i.image_name === 'base/cuda-devel:12.4.1-ubuntu22.04')!;
    expect(cuda.description).toContain('本镜像适用于 NVIDIA GPU 节点(CUDA 12.4.1)。');
    expect(cuda.description_en).toContain('Built for NVIDIA GPU nodes (CUDA 12.4.1).');
    const dtk = items.find((i) => i.image_name === 'base/dtk-devel:24.04-rocky8')!;
    expect(dtk.description).toContain('海光 DCU 节点(DTK 24.04,兼容 ROCm)');
  });

  it('is checked when it loads: a slip in a data file names the file and the place', () => {
    expect(APPS.find((a) => a.key === 'gromacs')?.job?.script).toMatch(/^#!\/bin\/bash\n.*\n$/s);
    const Entries = Type.Array(Type.Object({ downloads: Type.Integer() }));
    expect(() => parseSeed(Entries, [{ downloads: 1 }, { downloads: 'many' }], 'models.json')).toThrow(
      /catalogue seed models\.json\/1\/downloads: /,
    );
  });
});
