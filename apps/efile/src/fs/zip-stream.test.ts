import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { collectEntries, zipStream } from './zip-stream';

describe('zip stream', () => {
  const tmp = makeTempDir('efile-zip-');
  afterAll(() => tmp.cleanup());

  it.each([3, 1500])(
    'announces the exact size for %i files (small and >64 KiB central directory)',
    async (count) => {
      const dir = path.join(tmp.dir, `d${count}`);
      fs.mkdirSync(dir);
      for (let i = 0; i < count; i++)
        fs.writeFileSync(path.join(dir, `文件-${'x'.repeat(20)}-${i}.txt`), String(i));
      const entries = await collectEntries([{ host: dir, name: 'd' }], async () => true, 10_000);
      const z = zipStream(entries);
      const size = await z.size;
      const parts: Buffer[] = [];
      for await (const c of z.stream) parts.push(c as Buffer);
      const body = Buffer.concat(parts);
      expect(body.length).toBe(size);
      const file = path.join(tmp.dir, `d${count}.zip`);
      fs.writeFileSync(file, body);
      execFileSync('unzip', ['-tq', file]);
    },
  );
});
