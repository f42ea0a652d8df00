import { Button, Popover } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EFILE_COMMAND_DIR } from '@hpc/contracts';

/** The page's help on the shell's `efile` command (issue 26 §2): how to put it on the PATH, and what it does. */
function EfileCommandHelpText() {
  const { t } = useTranslation();
  const lines: [string, string][] = [
    [`export PATH="$PATH:${EFILE_COMMAND_DIR}"`, t('eshell.efileHelp.path')],
    ['efile open .', t('eshell.efileHelp.open')],
    ['efile get results.csv', t('eshell.efileHelp.get')],
  ];
  return (
    <div className="hpc-eshell-help" data-testid="eshell-efile-help">
      <p>{t('eshell.efileHelp.intro')}</p>
      <dl>
        {lines.map(([code, text]) => (
          <div key={code}>
            <dt>
              <code>{code}</code>
            </dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
      <p>{t('eshell.efileHelp.confirm')}</p>
    </div>
  );
}

/** The button of that help, in each session's bar (where the command is used). */
export function EfileCommandHelp() {
  const { t } = useTranslation();
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('eshell.efileHelp.title')}
      content={<EfileCommandHelpText />}
    >
      <Button size="small" icon={<QuestionCircleOutlined />} data-testid="eshell-efile-help-button">
        {t('eshell.efileHelp.button')}
      </Button>
    </Popover>
  );
}
