import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopyTips } from './use-copy-tips';
import './copy-command.css';

interface Props {
  command: string;
  /** Called after a copy, e.g. to count a model download. */
  onCopy?: () => void;
}

/**
 * A command in a code box with a copy button: wrapped at spaces only, scrolled sideways where a token is wider than
 * the box (issue 25 §3.5: never "ll / m/vllm"). Ant Design's copyable falls back to execCommand, so copying works on
 * plain-http intranet hosts where the Clipboard API is unavailable.
 */
export function CopyCommand({ command, onCopy }: Props) {
  const { t } = useTranslation();
  const copyTips = useCopyTips();
  return (
    <div className="hpc-command">
      {/* It scrolls sideways: focusable and named, so the keyboard can scroll it (axe scrollable-region-focusable). */}
      <pre tabIndex={0} role="region" aria-label={t('common.command')}>
        <code>
          {/* Each token unbreakable (the browser would break after "-" or "/"): lines wrap at spaces only. */}
          {command.split(/(\s+)/).map((part, i) =>
            i % 2 === 1 || part === '' ? (
              part
            ) : (
              <span key={i} className="hpc-command-token">
                {part}
              </span>
            ),
          )}
        </code>
      </pre>
      <Typography.Text className="hpc-command-copy" copyable={{ text: command, onCopy, ...copyTips }} />
    </div>
  );
}
