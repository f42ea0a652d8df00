// @vitest-environment jsdom
import '../../../antd-jsdom.test-fixture';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n, { initI18n, loadLanguage } from '../../../shared/i18n/i18n';
import type { FileEntry } from '@hpc/contracts';
import { FileTable } from './file-table';

const entry = (name: string, over: Partial<FileEntry> = {}): FileEntry => ({
  name,
  path: `/home/demo/${name}`,
  type: 'file',
  isDirectory: false,
  isLink: false,
  ext: name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '',
  owner: 'demo',
  group: 'demo',
  size: 1536,
  permission: '-rw-r--r--',
  mtime: Date.UTC(2026, 0, 2, 3, 4),
  ...over,
});

const ROWS = [
  entry('data', { type: 'dir', isDirectory: true, size: 4096, permission: 'drwxr-xr-x' }),
  entry('notes.txt'),
  entry('big.bin', { size: 5 * 1024 * 1024 }),
];

function setup(props: Partial<Parameters<typeof FileTable>[0]> = {}) {
  const handlers = {
    onSelect: vi.fn(),
    onSort: vi.fn(),
    onOpen: vi.fn(),
    onContextMenu: vi.fn(),
  };
  render(
    <FileTable
      rows={ROWS}
      loading={false}
      columns={['name', 'owner', 'type', 'size', 'permission']}
      sort="name"
      order="asc"
      selected={[]}
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

// Ant Design's first render under jsdom is slow on a loaded machine: generous limits, no timing asserted.
describe('FileTable', { timeout: 120_000 }, () => {
  it('shows one row per entry with its type, size and permission in the chosen columns', () => {
    setup();
    expect(screen.getAllByTestId('efile-name').map((a) => a.textContent)).toEqual([
      'data',
      'notes.txt',
      'big.bin',
    ]);
    const folder = within(rowOf('data'));
    expect(folder.getByText('efile.kind.folder')).toBeTruthy();
    expect(folder.getByText('-')).toBeTruthy();
    expect(folder.getByText('drwxr-xr-x')).toBeTruthy();
    expect(within(rowOf('notes.txt')).getByText('TXT')).toBeTruthy();
    // The short size in the cell, the exact one with the bytes on hover.
    // (its words in each language: the last test, with the catalogue loaded)
    expect(within(rowOf('big.bin')).getByText('5.0 MB').getAttribute('title')).toMatch(/^5\.00 MB/);
    // Columns the user hid are not rendered at all.
    expect(screen.queryByText('efile.columns.mtime')).toBeNull();
  });

  it('opens an entry by its name, by Enter on the name and by double-click on the row', () => {
    const { onOpen } = setup();
    fireEvent.click(screen.getByText('notes.txt'));
    expect(onOpen).toHaveBeenLastCalledWith(ROWS[1]);
    fireEvent.keyDown(screen.getByText('data'), { key: 'Enter' });
    expect(onOpen).toHaveBeenLastCalledWith(ROWS[0]);
    fireEvent.doubleClick(rowOf('big.bin'));
    expect(onOpen).toHaveBeenLastCalledWith(ROWS[2]);
    expect(onOpen).toHaveBeenCalledTimes(3);
  });

  it('selects by click, adds with Ctrl+click and removes a selected row with Ctrl+click', () => {
    const { onSelect } = setup({ selected: ['/home/demo/data'] });
    fireEvent.click(rowOf('notes.txt'));
    expect(onSelect).toHaveBeenLastCalledWith(['/home/demo/notes.txt']);
    fireEvent.click(rowOf('big.bin'), { ctrlKey: true });
    expect(onSelect).toHaveBeenLastCalledWith(['/home/demo/data', '/home/demo/big.bin']);
    fireEvent.click(rowOf('data'), { ctrlKey: true });
    expect(onSelect).toHaveBeenLastCalledWith([]);
    expect(rowOf('data').className).toContain('efile-row-selected');
  });

  it('selects the row under a right-click and opens the context menu there', () => {
    const { onSelect, onContextMenu } = setup();
    fireEvent.contextMenu(rowOf('notes.txt'), { clientX: 40, clientY: 50 });
    expect(onSelect).toHaveBeenCalledWith(['/home/demo/notes.txt']);
    expect(onContextMenu).toHaveBeenCalledWith(ROWS[1], 40, 50);
  });

  it('asks the server for another order when a column header is clicked', () => {
    const { onSort } = setup();
    fireEvent.click(screen.getByText('efile.columns.size'));
    expect(onSort).toHaveBeenLastCalledWith('size', 'asc');
  });

  it('returns to the default order when the descending column is clicked again', () => {
    const { onSort } = setup({ sort: 'size', order: 'desc' });
    fireEvent.click(screen.getByText('efile.columns.size'));
    expect(onSort).toHaveBeenLastCalledWith('name', 'asc');
  });

  it('shows a thumbnail of a small image only, asked for once, and keeps the icon when it cannot load', async () => {
    const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    const thumbnailUrl = vi.fn((path: string) =>
      path.endsWith('broken.png') ? Promise.reject(new Error('no ticket')) : Promise.resolve(PIXEL),
    );
    setup({
      thumbnailUrl,
      rows: [
        entry('pic.PNG', { size: 12_000, ext: 'PNG' }),
        entry('huge.jpg', { size: 300 * 1024 * 1024 }),
        entry('broken.png', { size: 500 }),
        entry('notes.txt'),
      ],
    });
    await vi.waitFor(() => expect(screen.getAllByTestId('efile-thumb')).toHaveLength(1));
    // Never for an image over the limit (the whole file would be fetched), nor for what is not an image.
    expect(thumbnailUrl.mock.calls.map(([p]) => p).sort()).toEqual([
      '/home/demo/broken.png',
      '/home/demo/pic.PNG',
    ]);
    expect(screen.getByTestId('efile-thumb').getAttribute('src')).toBe(PIXEL);
    // The failed one keeps its icon; the huge one has only its icon.
    expect(within(rowOf('broken.png')).queryByTestId('efile-thumb')).toBeNull();
    expect(within(rowOf('huge.jpg')).queryByTestId('efile-thumb')).toBeNull();
  });

  it('says the folder is empty', () => {
    setup({ rows: [] });
    expect(screen.getByText('efile.empty')).toBeTruthy();
  });
});

// Last in the file: the catalogue loaded, the keys the tests above read are texts from here on.
describe('FileTable in both languages', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await initI18n();
    await loadLanguage('en-US');
  });
  afterAll(() => i18n.changeLanguage('cimode'));
  it.each([
    ['zh-CN', '5.00 MB（5,242,880 B）'],
    ['en-US', '5.00 MB (5,242,880 B)'],
  ])('%s: the exact size on hover, with its bytes in the language’s brackets', async (lang, title) => {
    await i18n.changeLanguage(lang);
    setup();
    expect(within(rowOf('big.bin')).getByText('5.0 MB').getAttribute('title')).toBe(title);
    document.body.innerHTML = '';
  });
});
