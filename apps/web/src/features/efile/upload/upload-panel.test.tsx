// @vitest-environment jsdom
import '../../../antd-jsdom.test-fixture';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkError, type ChunkTransport } from './chunk-transport';
import type { UploadTarget } from './upload-queue';
import type * as UploadStoreModule from './upload-store';

type UploadStore = typeof UploadStoreModule;

/**
 * The panel runs on a real upload engine whose chunk requests never answer (until a pause aborts them), so rows stay
 * uploading while the test looks at them; merge and partial-file deletion are spies.
 */
const fake = vi.hoisted(() => ({ deletePartial: vi.fn(async () => undefined) }));
vi.mock('./upload-store', async (importOriginal) => {
  const actual = await importOriginal<UploadStore>();
  const { UploadEngine } = await import('./upload-engine');
  const hanging = (signal: AbortSignal) =>
    new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(new ChunkError('0', true)), { once: true }),
    );
  const transport: ChunkTransport = {
    test: (_t, _f, _n, signal) => hanging(signal),
    send: (_t, _f, _n, signal) => hanging(signal),
  };
  return {
    ...actual,
    uploadEngine: new UploadEngine({
      transport,
      merge: async () => undefined,
      deletePartial: fake.deletePartial,
      setInterval: () => 0,
      clearInterval: () => undefined,
    }),
  };
});

const { uploadEngine } = await import('./upload-store');
const { UploadPanel } = await import('./upload-panel');

const target: UploadTarget = {
  clusterId: '11250',
  clusterName: 'Kunshan',
  baseUrl: '/efile/11250',
  dir: '/public/home/demo/in',
};

function addFile(name = 'a.txt', bytes = 2048) {
  return act(() =>
    uploadEngine.add({
      target,
      name,
      isFolder: false,
      files: [{ blob: new Blob(['x'.repeat(bytes)]), relativePath: name }],
      chunkSize: 1024 * 1024,
      overwrite: false,
    }),
  );
}

function setup() {
  const onClose = vi.fn();
  const onOpenDir = vi.fn();
  render(
    <App>
      <UploadPanel onClose={onClose} onOpenDir={onOpenDir} maxChunkSize={64 * 1024 * 1024} />
    </App>,
  );
  return { onClose, onOpenDir };
}

const statusOf = (name: string) =>
  within(screen.getByText(name).closest('tr')!).getByTestId('efile-upload-status');

afterEach(async () => {
  for (const r of uploadEngine.getSnapshot()) await uploadEngine.remove(r.id).catch(() => undefined);
  fake.deletePartial.mockClear();
});

// Ant Design's first render under jsdom is slow on a loaded machine: generous limits, no timing asserted.
describe('UploadPanel', { timeout: 120_000 }, () => {
  it('says the list is empty, and closes without stopping anything', () => {
    const { onClose } = setup();
    expect(screen.getByText('efile.upload.empty')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'efile.close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('lists an upload with its folder, exact size and state, and pauses and resumes it', async () => {
    setup();
    await addFile('a.txt', 2048);
    const row = screen.getByText('a.txt').closest('tr')!;
    expect(within(row).getByText('/public/home/demo/in')).toBeTruthy();
    expect(within(row).getByText('2.00 KB')).toBeTruthy();
    expect(['play', 'waiting']).toContain(statusOf('a.txt').dataset.status);

    fireEvent.click(within(row).getByRole('button', { name: 'efile.upload.pause' }));
    await waitFor(() => expect(statusOf('a.txt').dataset.status).toBe('pause'));
    expect(within(row).queryByRole('button', { name: 'efile.upload.pause' })).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'efile.upload.resume' }));
    await waitFor(() => expect(['play', 'waiting']).toContain(statusOf('a.txt').dataset.status));
  });

  it('opens the upload folder of a row', async () => {
    const { onOpenDir } = setup();
    await addFile('b.txt');
    fireEvent.click(screen.getByRole('button', { name: 'efile.upload.openDir' }));
    expect(onOpenDir).toHaveBeenCalledWith('11250', '/public/home/demo/in');
  });

  it('shows a row that failed before uploading as an error without a retry', async () => {
    setup();
    act(() => uploadEngine.addFailed(target, 'folder', true, '1023'));
    expect(statusOf('folder').dataset.status).toBe('error');
    expect(screen.queryByTestId('efile-upload-retry')).toBeNull();
  });

  it('deletes an unfinished upload after confirmation, with its partial file', async () => {
    setup();
    await addFile('c.txt');
    fireEvent.click(screen.getByRole('button', { name: 'efile.upload.delete' }));
    // Nothing happens before the confirmation.
    expect(fake.deletePartial).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: 'efile.ok' }));
    await waitFor(() => expect(screen.queryByText('c.txt')).toBeNull());
    expect(fake.deletePartial).toHaveBeenCalledWith(target, ['/public/home/demo/in/c.txt']);
  });
});
