import { Progress } from 'antd';
import { formatSpeed } from '../../../shared/utils/format-size';
import { useUploadProgress } from './use-uploads';

/**
 * A row's progress bar and speed: the only part of the upload list that re-renders on the 500 ms tick, so each tick
 * costs one bar's update instead of a rebuilt table.
 */
export function UploadProgressCell({ rowId }: { rowId: string }) {
  const row = useUploadProgress(rowId);
  if (!row || row.status === 'success' || row.status === 'error') return null;
  return (
    <>
      <Progress percent={Math.floor(row.progress * 100)} size="small" />
      {row.status === 'play' && row.averageSpeed > 0 && (
        <span className="efile-dim">{formatSpeed(row.averageSpeed)}</span>
      )}
    </>
  );
}
