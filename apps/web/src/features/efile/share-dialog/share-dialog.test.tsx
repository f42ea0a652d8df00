// @vitest-environment jsdom
import '../../../antd-jsdom.test-fixture';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import type { FileEntry } from '@hpc/contracts';
import type { ShareInfo } from '@hpc/api-client';
import type { EfileApi } from '../api/efile.api';
import { ShareDialog } from './share-dialog';

const entry: FileEntry = {
  name: 'results',
  path: '/public/home/demo/results',
  type: 'dir',
  isDirectory: true,
  isLink: false,
  ext: '',
  owner: 'demo',
  group: 'demo',
  size: 4096,
  permission: 'drwxr-xr-x',
  mtime: 0,
};

const opened: ShareInfo = {
  shareId: 's1',
  path: entry.path,
  name: entry.name,
  isDir: true,
  link: '/share/11250/s1',
  password: 'abc123',
  validDays: 3,
  shareTime: 0,
  endUseTime: Date.UTC(2026, 5, 1),
  status: 'valid',
};

/** The efile calls the dialog makes, as spies; the item is not shared yet unless `existing` says so. */
function fakeApi(existing: ShareInfo[] = []) {
  return {
    shareList: vi.fn(async () => ({ list: existing, total: existing.length, pageNum: 1, pageSize: 500 })),
    shareOpen: vi.fn(async () => opened),
    shareClose: vi.fn(async () => ({ closed: 1 })),
    linuxUpload: vi.fn(),
    linuxDownload: vi.fn(),
  };
}

function setup(api = fakeApi(), maxDays = 30) {
  const onClose = vi.fn();
  render(
    <App>
      <ShareDialog api={api as unknown as EfileApi} entry={entry} maxDays={maxDays} onClose={onClose} />
    </App>,
  );
  return { api, onClose };
}

// Ant Design's first render under jsdom is slow on a loaded machine: generous limits, no timing asserted.
describe('ShareDialog', { timeout: 120_000 }, () => {
  it('opens a link with the validity and the extraction code the user typed', async () => {
    const { api } = setup();
    await waitFor(() => expect(api.shareList).toHaveBeenCalledWith(1, 500));
    fireEvent.change(screen.getByTestId('efile-share-days'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('efile-share-code-input'), { target: { value: ' abc123 ' } });
    fireEvent.click(screen.getByTestId('efile-share-open'));
    await screen.findByTestId('efile-share-info');
    expect(api.shareOpen).toHaveBeenCalledWith({ path: entry.path, validDays: '3', password: 'abc123' });
    expect(screen.getByTestId('efile-share-link').textContent).toBe(
      `${window.location.origin}/share/11250/s1`,
    );
    expect(screen.getByTestId('efile-share-code').textContent).toBe('abc123');
  });

  it('refuses a validity over the maximum without asking the server', async () => {
    const { api } = setup(fakeApi(), 30);
    fireEvent.change(screen.getByTestId('efile-share-days'), { target: { value: '31' } });
    fireEvent.click(screen.getByTestId('efile-share-open'));
    await screen.findByText('efile.share.validity.tooLong');
    expect(api.shareOpen).not.toHaveBeenCalled();
  });

  it('refuses an empty extraction code', async () => {
    const { api } = setup();
    fireEvent.change(screen.getByTestId('efile-share-code-input'), { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('efile-share-open'));
    await screen.findByText('efile.share.codeRequired');
    expect(api.shareOpen).not.toHaveBeenCalled();
  });

  it('shows the open link of an item already shared, and closes it', async () => {
    const { api } = setup(fakeApi([{ ...opened, path: '/elsewhere', shareId: 'x' }, opened]));
    await screen.findByTestId('efile-share-info');
    expect(screen.getByTestId('efile-share-code').textContent).toBe('abc123');
    fireEvent.click(screen.getByTestId('efile-share-close'));
    await screen.findByTestId('efile-share-open');
    expect(api.shareClose).toHaveBeenCalledWith({ shareId: 's1' });
    // A new code is offered for the next link.
    expect(screen.getByTestId<HTMLInputElement>('efile-share-code-input').value).toMatch(/^\S{6}$/);
  });

  it('closes the dialog', () => {
    const { onClose } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'efile.close' }));
    expect(onClose).toHaveBeenCalled();
  });
});
