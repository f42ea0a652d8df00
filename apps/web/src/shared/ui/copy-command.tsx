import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import './copy-command.css';

interface Props {
  command: string;
  /** Called after a copy, e.g. to count a model download. */
  onCopy?: () => void;
}

/**
 * A command in a code box with a copy button. Ant Design's copyable falls back to execCommand, so copying works on
 * plain-http intranet hosts where the Clipboard API is unavailable.
 */
export function CopyCommand({ command, onCopy }: Props) {
  const { t } = useTranslation();
  return (
    <div className="hpc-command">
      <pre>
        <code>{command}</code>
      </pre>
      <Typography.Text
        className="hpc-command-copy"
        copyable={{
          text: command,
          onCopy,
          tooltips: [t('common.copy'), t('common.copied')],
        }}
      />
    </div>
  );
}
