// @vitest-environment jsdom
import '../../../antd-jsdom.test-fixture';
import { render, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type OperationProgress } from '@hpc/api-client';
import type { EfileApi } from '../api/efile.api';
import { OperationProgressBar } from './operation-progress';

const running: OperationProgress = {
  operationId: 'op1',
  kind: 'copy',
  status: 'running',
  bytesDone: 1024,
  bytesTotal: 4096,
  filesDone: 1,
  filesTotal: 4,
  errorCode: null,
};

const lost = (kind: 'network' | 'timeout' | 'http', status = 0) =>
  new ApiError({ code: 'x', msg: 'lost', status, kind });

function setup(answers: (OperationProgress | ApiError)[]) {
  const operationProgress = vi.fn(async () => {
    const a = answers.shift() ?? running;
    if (a instanceof ApiError) throw a;
    return a;
  });
  const onEnd = vi.fn();
  const api = { operationProgress, operationCancel: vi.fn(async () => undefined) } as unknown as EfileApi;
  render(
    <App>
      <OperationProgressBar api={api} operationId="op1" mode="copy" onEnd={onEnd} />
    </App>,
  );
  return { operationProgress, onEnd };
}

describe('the progress of a running copy', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the operation through lost answers (network, timeout, a proxy 502), asking again', async () => {
    vi.useFakeTimers();
    const { operationProgress, onEnd } = setup([
      lost('network'),
      lost('timeout'),
      lost('http', 502),
      running,
      { ...running, status: 'done', bytesDone: 4096, filesDone: 4 },
    ]);
    // 300 ms to the first ask, then 1 s, 2 s, 4 s of backing off, then 1 s while it runs.
    await vi.advanceTimersByTimeAsync(300 + 1000 + 2000 + 4000);
    expect(operationProgress).toHaveBeenCalledTimes(4);
    expect(onEnd).not.toHaveBeenCalled();
    expect(screen.getByTestId('efile-operation')).toBeTruthy();
    await vi.advanceTimersByTimeAsync(1000);
    expect(operationProgress).toHaveBeenCalledTimes(5);
    expect(onEnd).toHaveBeenCalledWith(expect.objectContaining({ status: 'done' }));
  });

  it("ends on efile's own refusal (the operation is not there), once", async () => {
    vi.useFakeTimers();
    const { operationProgress, onEnd } = setup([
      new ApiError({ code: '1020', msg: 'No such operation', status: 200, kind: 'api' }),
    ]);
    await vi.advanceTimersByTimeAsync(300);
    expect(onEnd).toHaveBeenCalledWith(null);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(operationProgress).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });
});
