import { useCallback, useMemo } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { CommonCodes } from '@hpc/contracts';
import { createEfileApi, type EfileApi } from '../api/efile.api';
import { runningOperation, useRunningOperation } from './running-operation';

/**
 * The tab's copy or move as the file manager shows it: the running one with a client of the instance that runs it
 * (for the progress bar), `start` for the dialog that began one, and `end`, which says how it ended and refreshes.
 */
export function useOperation(refresh: () => void) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operation = useRunningOperation();
  const api = useMemo(
    () => (operation ? createEfileApi(operation.clusterId, operation.baseUrl) : null),
    [operation],
  );
  const start = useCallback(
    (on: EfileApi, id: string, mode: 'copy' | 'move') =>
      runningOperation.set({ id, mode, clusterId: on.clusterId, baseUrl: on.baseUrl }),
    [],
  );
  const end = useCallback(
    (op: { status: string; errorCode: string | null } | null) => {
      runningOperation.set(null);
      if (op?.status === 'done') void message.success(t('efile.copyMove.done'));
      else if (op?.status === 'failed')
        void message.error(t(`errors.${op.errorCode ?? CommonCodes.unknown}`));
      else if (op?.status === 'cancelled') void message.info(t('efile.copyMove.cancelled'));
      refresh();
    },
    [message, t, refresh],
  );
  return { operation, api, start, end };
}
