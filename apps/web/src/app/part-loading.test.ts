// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  classifyPartFailure,
  loadPart,
  PART_LOAD_TIMEOUT_MS,
  PartLoadError,
  partUrlOf,
  reloadOnceForMissingPart,
} from './part-loading';

describe('loading a page part', () => {
  beforeEach(() => window.sessionStorage.clear());
  afterEach(() => vi.useRealTimers());

  it('gives up after the 120 s of spec §9, not before', async () => {
    vi.useFakeTimers();
    expect(PART_LOAD_TIMEOUT_MS).toBe(120_000);
    const result = loadPart(() => new Promise(() => undefined)).catch((e: unknown) => e);
    let settled = false;
    void result.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error).toBeInstanceOf(PartLoadError);
    expect((error as PartLoadError).kind).toBe('timeout');
  });

  it('tells a part gone from the server (404) from other failures', async () => {
    const gone = new TypeError('Failed to fetch dynamically imported module: http://x/assets/a-123.js');
    expect(partUrlOf(gone)).toBe('http://x/assets/a-123.js');
    expect(await classifyPartFailure(gone, async () => 404)).toBe('missing');
    expect(await classifyPartFailure(gone, async () => 200)).toBe('other');
    expect(
      await classifyPartFailure(gone, async () => {
        throw new TypeError('offline');
      }),
    ).toBe('other');
    expect(await classifyPartFailure(new Error('boom'), async () => 404)).toBe('other');
  });

  it('reloads once for a missing part, then lets the error show', () => {
    const reload = vi.fn();
    expect(reloadOnceForMissingPart(reload)).toBe(true);
    expect(reloadOnceForMissingPart(reload)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('allows the next reload once a part has loaded again', async () => {
    const reload = vi.fn();
    reloadOnceForMissingPart(reload);
    await loadPart(async () => ({ default: 1 }));
    expect(reloadOnceForMissingPart(reload)).toBe(true);
  });
});
