// @vitest-environment jsdom
import '../../antd-jsdom.test-fixture';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import type { LocalListing } from './fastrans-client';

/** The page's client: `list` answers when the test says so; `snap.client` is the machine the page drives. */
const fake = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  let snap = { client: 'laptop' as string | null, via: 'relay', clients: [], permission: null };
  return {
    pending: [] as { path: string | undefined; answer: (l: LocalListing) => void }[],
    list: null as unknown as (path?: string) => Promise<LocalListing>,
    drive(client: string) {
      snap = { ...snap, client };
      for (const l of listeners) l();
    },
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    getSnapshot: () => snap,
  };
});
fake.list = (path?: string) => new Promise((answer) => fake.pending.push({ path, answer }));
vi.mock('./fastrans-client', () => ({
  fastransClient: {
    list: (path?: string) => fake.list(path),
    subscribe: fake.subscribe,
    getSnapshot: fake.getSnapshot,
    chooseClient: vi.fn(),
  },
}));
vi.mock('./relay-note', () => ({ RelayNote: () => null }));

import { LocalPicker } from './local-picker';

const listing = (home: string, names: string[]): LocalListing => ({
  path: home,
  parent: '/',
  total: names.length,
  list: names.map((name) => ({ name, path: `${home}/${name}`, dir: false, size: 1, mtime: 0 })),
});

function picker(onError: (e: unknown) => void = () => undefined) {
  const props = { mode: 'pick' as const, remote: '/public/home/u', onCancel: vi.fn(), onPick: vi.fn() };
  const view = render(
    <App>
      <LocalPicker {...props} onError={onError} />
    </App>,
  );
  return {
    ...props,
    rerender: (next: (e: unknown) => void) =>
      view.rerender(
        <App>
          <LocalPicker {...props} onError={next} />
        </App>,
      ),
  };
}

const answer = async (i: number, l: LocalListing) => {
  await act(async () => fake.pending[i]!.answer(l));
};
const rowBox = (name: string) =>
  screen.getByText(name).closest('tr')!.querySelector<HTMLInputElement>('input[type=checkbox]')!;

// Ant Design's first render under jsdom is slow on a loaded machine: generous limits, no timing asserted.
describe('the local file browser', { timeout: 120_000 }, () => {
  it("keeps the user's ticks through the parent's renders, and lists the new machine's home after a switch", async () => {
    fake.pending = [];
    const p = picker();
    await waitFor(() => expect(fake.pending).toHaveLength(1));
    await answer(0, listing('/home/laptop', ['a.bin', 'b.bin']));
    fireEvent.click(rowBox('a.bin'));
    expect(rowBox('a.bin').checked).toBe(true);

    // A parent render with a new error callback (a new `t` after a language change) asks for nothing.
    p.rerender(() => undefined);
    expect(fake.pending).toHaveLength(1);
    expect(rowBox('a.bin').checked).toBe(true);

    // The user picks the workstation in the relay note: its home, nothing ticked.
    act(() => fake.drive('work'));
    await waitFor(() => expect(fake.pending).toHaveLength(2));
    await answer(1, listing('/home/work', ['c.bin']));
    expect(screen.queryByText('a.bin')).toBeNull();
    expect(rowBox('c.bin').checked).toBe(false);
  });

  it('shows the last listing asked for when an earlier one answers after it', async () => {
    fake.pending = [];
    const onError = vi.fn();
    picker(onError);
    await waitFor(() => expect(fake.pending).toHaveLength(1));
    act(() => fake.drive('laptop-2'));
    await waitFor(() => expect(fake.pending).toHaveLength(2));
    await answer(1, listing('/home/new', ['new.bin']));
    await answer(0, listing('/home/old', ['old.bin']));
    expect(screen.getByText('new.bin')).toBeTruthy();
    expect(screen.queryByText('old.bin')).toBeNull();
    expect(onError).not.toHaveBeenCalled();
  });
});
