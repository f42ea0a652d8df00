import { useEffect, useState } from 'react';
import { Button, Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../shared/api/notify';
import { isTransient, type OperationProgress as Op } from '@hpc/api-client';
import { backoffMs } from '@hpc/contracts';
import type { EfileApi } from '../api/efile.api';
import { formatSize } from '../../../shared/utils/format-size';

/** Asking again after a lost answer: 1 s, doubling, at most 10 s. */
const POLL_BACKOFF = { baseMs: 1000, maxMs: 10_000 };

interface Props {
  api: EfileApi;
  operationId: string;
  mode: 'copy' | 'move';
  /** The operation ended (done, failed or cancelled): refresh and close. */
  onEnd: (op: Op | null) => void;
}

/** Progress of the running copy or move, polled once a second, with cancel (spec §4). */
export function OperationProgressBar({ api, operationId, mode, onEnd }: Props) {
  const { t } = useTranslation();
  const [op, setOp] = useState<Op | null>(null);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (failures: number) => {
      try {
        const p = await api.operationProgress(operationId);
        if (!live) return;
        setOp(p);
        if (p.status === 'running') timer = setTimeout(() => void poll(0), 1000);
        else onEnd(p);
      } catch (e) {
        if (!live) return;
        // The copy runs on the server whatever happens to one answer: a lost one (the network, an instance that
        // restarts, a proxy's 502) asks again, backing off, and keeps the operation, so that its cancel, and the
        // cancel on leaving the site, still reach it. Only the server's own refusal ends it here.
        if (isTransient(e)) {
          timer = setTimeout(() => void poll(failures + 1), backoffMs(failures + 1, POLL_BACKOFF));
          return;
        }
        notifyError(e);
        onEnd(null);
      }
    };
    timer = setTimeout(() => void poll(0), 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, operationId, onEnd]);

  const percent = op && op.bytesTotal > 0 ? Math.floor((op.bytesDone / op.bytesTotal) * 100) : 0;
  return (
    <div className="efile-operation" data-testid="efile-operation">
      <span>{t(`efile.copyMove.running.${mode}`)}</span>
      <Progress percent={percent} size="small" className="efile-operation-bar" />
      {op && (
        <span className="efile-operation-detail">
          {t('efile.copyMove.files', { done: op.filesDone, total: op.filesTotal })} ·{' '}
          {formatSize(op.bytesDone)}
        </span>
      )}
      <Button size="small" danger onClick={() => api.operationCancel(operationId).catch(notifyError)}>
        {t('efile.cancel')}
      </Button>
    </div>
  );
}
