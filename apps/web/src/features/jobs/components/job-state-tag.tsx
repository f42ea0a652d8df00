import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { stateColor } from '../lib/job-format';

/** A Slurm state, translated where the catalogue knows it (Slurm's own name otherwise), with its colour. */
export function JobStateTag({ state }: { state: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={stateColor(state)} data-state={state}>
      {t(`jobs.states.${state}`, { defaultValue: state })}
    </Tag>
  );
}

/** A pending reason, translated where known. */
export function useReasonText() {
  const { t } = useTranslation();
  return (reason: string) => t(`jobs.reasons.${reason}`, { defaultValue: reason });
}
