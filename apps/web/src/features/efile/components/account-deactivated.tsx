import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What E-File shows in place of the folder on a centre where the user's account is deactivated (spec §1): the
 * feature is unavailable there until the sales manager reactivates the account. Said once, here; no call is made
 * that would fail (and warn again) with 1007.
 */
export function AccountDeactivated({ centre, account }: { centre: string; account: string }) {
  const { t } = useTranslation();
  return (
    <Result
      className="efile-folder-error"
      data-testid="efile-deactivated"
      status="warning"
      title={t('efile.deactivated.title', { centre })}
      subTitle={t('efile.deactivated.text', { account })}
    />
  );
}
