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

  it('writes a task list once and reads it back in windows from a byte position, to the end', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-store-'));
    dirs.push(dir);
    const store = new HistoryStore(dir);
    const w = await store.listWriter('big');
    // Names that need escaping in JSON (a newline in a name is legal on Linux) and lines across read blocks.
    const all = Array.from({ length: 20_000 }, (_, i) => ({
      rel: `d/${'x'.repeat(i % 50)}\n"é${i}`,
      size: i,
    }));
    for (const e of all) await w.add(e);
    await w.close();
    expect([w.files, w.total]).toEqual([all.length, all.reduce((a, e) => a + e.size, 0)]);
    const got: typeof all = [];
    let pos = 0;
    for (let ended = false; !ended;) {
      const r = await store.readList('big', pos, 777);
      expect(r.entries.length).toBeLessThanOrEqual(777);
      got.push(...r.entries);
      ({ pos, ended } = r);
    }
    expect(got).toEqual(all);
    await store.remove('big');
    expect(fs.existsSync(store.listFile('big'))).toBe(false);
  });

  it('reads a list while it is written, as far as whole lines go, and continues one cut in the middle of a line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-store-'));
    dirs.push(dir);
    const store = new HistoryStore(dir);
    const w = await store.listWriter('grow', 3);
    let flushes = 0;
    w.onFlush = () => flushes++;
    for (let i = 0; i < 7; i++) await w.add({ rel: `f${i}`, size: i });
    // Two parts of three are on disk, the seventh waits in the writer: a read stops at what is written.
    expect([flushes, w.files]).toEqual([2, 7]);
    const part = await store.readList('grow', 0, 100, w.written);
    expect(part.entries.map((e) => e.rel)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5']);
    expect([part.pos, part.ended]).toEqual([w.written, true]);
    await w.close();
    // A stop in the middle of a line (the client killed while writing): the whole lines are kept, the cut one is not.
    fs.appendFileSync(store.listFile('grow'), '["f7",7');
    const end = await store.listEnd('grow');
    expect([end.files, end.total, [...end.rels]]).toEqual([
      7,
      21,
      ['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6'],
    ]);
    const more = await store.listWriter('grow', 3, end);
    await more.add({ rel: 'f7', size: 7 });
    await more.close();
    expect([more.files, more.total]).toEqual([8, 28]);
    const all = await store.readList('grow', 0, 100);
    expect([all.entries.map((e) => e.rel).join(), all.ended]).toEqual(['f0,f1,f2,f3,f4,f5,f6,f7', true]);
  });

  it('reads a task saved before the window as one fed, ended list', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastrans-store-'));
    dirs.push(dir);
    const old = {
      ...createTask({ id: 'old', kind: 'upload', local: '/l', remote: '/r', clusterId: 'c' }, 1),
    };
    const files = [
      { rel: 'a', size: 5, state: 'done' },
      { rel: 'b', size: 6, state: 'todo' },
    ];
    fs.mkdirSync(path.join(dir, 'tasks'));
    fs.writeFileSync(
      path.join(dir, 'tasks', 'old.json'),
      JSON.stringify({ ...old, files, fed: undefined, cursor: 1, failed: undefined }),
    );
    const [t] = await new HistoryStore(dir).load();
    expect(t).toMatchObject({ fed: 2, filesTotal: 2, listEnded: true, nextSeq: 2, failed: [] });
    expect(t!.files.map((f) => f.seq)).toEqual([0, 1]);
  });
});
