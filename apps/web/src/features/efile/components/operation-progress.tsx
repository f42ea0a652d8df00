import { useEffect, useState } from 'react';
import { Button, Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../shared/api/notify';
import type { OperationProgress as Op } from '@hpc/api-client';
import type { EfileApi } from '../api/efile.api';
import { formatSize } from '../../../shared/utils/format-size';

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
    const poll = async () => {
      try {
        const p = await api.operationProgress(operationId);
        if (!live) return;
        setOp(p);
        if (p.status === 'running') timer = setTimeout(() => void poll(), 1000);
        else onEnd(p);
      } catch (e) {
        notifyError(e);
        if (live) onEnd(null);
      }
    };
    timer = setTimeout(() => void poll(), 300);
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
