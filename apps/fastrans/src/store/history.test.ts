import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTask } from '../engine/task';
import { configDir, HistoryStore } from './history';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('history store', () => {
  it('uses the platform config folder', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/hpc-fastrans');
    expect(configDir({ HOME: '/h' }, 'darwin')).toBe('/h/.config/hpc-fastrans');
    expect(configDir({ APPDATA: 'C:\\U\\AppData\\Roaming' }, 'win32')).toContain('hpc-fastrans');
  });

  it('keeps tasks across a restart and forgets removed ones', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-store-'));
    dirs.push(dir);
    const t = createTask(
      {
        id: 'abc',
        kind: 'upload',
        local: '/l',
        remote: '/r',
        clusterId: 'c',
        files: [{ rel: 'a', size: 5 }],
      },
      1,
    );
    await new HistoryStore(dir).save(t);
    const again = await new HistoryStore(dir).load();
    expect(again).toEqual([t]);
    fs.writeFileSync(path.join(dir, 'tasks', 'broken.json'), '{');
    await new HistoryStore(dir).remove('abc');
    expect(await new HistoryStore(dir).load()).toEqual([]);
    await expect(new HistoryStore(dir).save({ ...t, id: '../x' })).rejects.toThrow();
  });
});
