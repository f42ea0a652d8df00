import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/api/error-message';

interface Props {
  error: unknown;
  onRetry: () => void;
  /** Goes to the user's home; left out when the failing folder is the home itself. */
  onHome?: () => void;
}

/**
 * What the folder view shows when its listing failed (a deactivated account's "1007", a folder that does not
 * exist): the reason and the ways on, never "This folder is empty", which would say something false.
 */
export function FolderError({ error, onRetry, onHome }: Props) {
  const { t } = useTranslation();
  return (
    <Result
      className="efile-folder-error"
      data-testid="efile-error"
      status="warning"
      title={t('efile.folderError.title')}
      subTitle={errorMessage(error, t) ?? t('errors.unknown')}
      extra={[
        <Button key="retry" onClick={onRetry}>
          {t('efile.folderError.retry')}
        </Button>,
        onHome && (
          <Button key="home" type="primary" onClick={onHome}>
            {t('efile.folderError.home')}
          </Button>
        ),
      ]}
    />
  );
}
