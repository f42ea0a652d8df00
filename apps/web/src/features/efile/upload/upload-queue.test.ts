import { describe, expect, it } from 'vitest';
import {
  addProblem,
  deleteOutcome,
  groupByRoot,
  nextChunk,
  rowStatus,
  stableByShape,
  viewRow,
  type FileTask,
  type RowView,
  type UploadRow,
} from './upload-queue';

const target = { clusterId: 'c1', clusterName: 'C1', baseUrl: '/efile/c1', dir: '/home/u' };
const row = (over: Partial<UploadRow> = {}): UploadRow => ({
  id: 'r1',
  name: 'a.txt',
  isFolder: false,
  target,
  size: 10,
  fileIds: ['f1'],
  paused: false,
  averageSpeed: 0,
  ...over,
});
const file = (over: Partial<FileTask> = {}): FileTask => ({
  id: 'f1',
  rowId: 'r1',
  blob: new Blob(['0123456789']),
  relativePath: 'a.txt',
  size: 10,
  chunkSize: 4,
  identifier: '10-atxt',
  overwrite: false,
  done: new Set(),
  sent: 0,
  cursor: 1,
  state: 'queued',
  ...over,
});

describe('row state (spec §4)', () => {
  it('waits, plays, pauses, fails and succeeds', () => {
    expect(rowStatus(row(), [file()])).toBe('waiting');
    expect(rowStatus(row(), [file({ sent: 4 })])).toBe('play');
    expect(rowStatus(row({ paused: true }), [file({ sent: 4 })])).toBe('pause');
    expect(rowStatus(row({ paused: true }), [file({ state: 'error', errorCode: '1501' })])).toBe('error');
    expect(rowStatus(row(), [file({ state: 'success' })])).toBe('success');
    expect(rowStatus(row({ errorCode: '1030' }), [])).toBe('error');
  });

  it('aggregates a folder: progress by bytes, finished at 1', () => {
    const files = [file({ state: 'success' }), file({ id: 'f2', sent: 5 })];
    const v = viewRow(row({ isFolder: true, size: 20 }), files);
    expect(v.progress).toBeCloseTo(0.75);
    expect(v.status).toBe('play');
    const done = viewRow(row({ isFolder: true }), [
      file({ state: 'success' }),
      file({ id: 'f2', state: 'success' }),
    ]);
    expect(done).toMatchObject({ progress: 1, status: 'success' });
  });
});

describe('rules', () => {
  it('groups picked files into rows with their empty folders', () => {
    const roots = groupByRoot(
      [
        { blob: new Blob([]), relativePath: 'top.txt' },
        { blob: new Blob([]), relativePath: 'd/x/1.txt' },
        { blob: new Blob([]), relativePath: 'd/2.txt' },
      ],
      ['d', 'd/x', 'd/empty', 'e', 'd/deep/er'],
    );
    expect(roots.map((r) => [r.name, r.isFolder, r.files.length, r.emptyDirs])).toEqual([
      ['top.txt', false, 1, []],
      ['d', true, 2, ['d/empty', 'd/deep/er']],
      ['e', true, 0, ['e']],
    ]);
  });

  it('refuses a same-name row and a folder over the limit', () => {
    const rows = [row({ name: 'd' })];
    expect(addProblem(rows, { name: 'd', isFolder: true, fileCount: 2 }, target)).toBe('duplicate');
    expect(
      addProblem(rows, { name: 'd', isFolder: true, fileCount: 2 }, { ...target, dir: '/x' }),
    ).toBeNull();
    expect(addProblem([], { name: 'big', isFolder: true, fileCount: 1001 }, target)).toBe('folderLimit');
    expect(addProblem([], { name: 'ok', isFolder: true, fileCount: 1000 }, target)).toBeNull();
  });

  it('says deleted for unfinished files and errors, removed otherwise', () => {
    expect(deleteOutcome({ status: 'play', isFolder: false })).toBe('deleted');
    expect(deleteOutcome({ status: 'pause', isFolder: false })).toBe('deleted');
    expect(deleteOutcome({ status: 'error', isFolder: true })).toBe('deleted');
    expect(deleteOutcome({ status: 'play', isFolder: true })).toBe('removed');
    expect(deleteOutcome({ status: 'success', isFolder: false })).toBe('removed');
  });

  it('schedules chunks in order, skipping paused rows, stored and in-flight chunks', () => {
    const a = file({ done: new Set([1]) });
    const b = file({ id: 'f2', rowId: 'r2' });
    const total = () => 3;
    expect(nextChunk([a, b], () => false, new Set(['f1:2']), total)).toMatchObject({ file: a, n: 3 });
    expect(nextChunk([a, b], (r) => r === 'r1', new Set(), total)).toMatchObject({ file: b, n: 1 });
    a.done.add(3);
    expect(nextChunk([a, b], () => false, new Set(['f1:2']), total)).toMatchObject({ file: b, n: 1 });
  });

  it('keeps the list rows while only progress and speed change', () => {
    const view = (over: Partial<RowView> = {}): RowView => ({
      id: 'r1',
      name: 'a.bin',
      isFolder: false,
      clusterId: 'c1',
      clusterName: 'C1',
      toPath: '/home/u',
      size: 10,
      progress: 0,
      averageSpeed: 0,
      status: 'play',
      fileCount: 1,
      ...over,
    });
    let snapshot: RowView[] = [view()];
    const rows = stableByShape(() => snapshot);
    const first = rows();
    snapshot = [view({ progress: 0.5, averageSpeed: 100 })];
    expect(rows()).toBe(first);
    snapshot = [view({ progress: 1, status: 'success' })];
    const done = rows();
    expect(done).not.toBe(first);
    expect(done[0]!.status).toBe('success');
    snapshot = [...snapshot, view({ id: 'r2' })];
    expect(rows()).toHaveLength(2);
  });
});
