import { Button } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { isPartLoadError } from '../part-loading';

/**
 * What a route shows when its page failed: a part that did not load (spec §8 load errors: missing, timeout, other)
 * or an error while rendering. Translated, inside the shell (the header and menu stay usable), with a reload;
 * never React Router's developer screen. Plain markup rather than antd's Result, whose illustrations would weigh
 * on the first load (this is part of the shell).
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const load = isPartLoadError(error);
  return (
    <div
      className="hpc-route-error"
      role="alert"
      data-testid={load ? 'page-load-error' : 'page-error'}
      data-kind={load ? error.kind : undefined}
    >
      <WarningOutlined className="hpc-route-error-icon" aria-hidden />
      <h2>{load ? t('errors.load.title') : t('errors.page.title')}</h2>
      <p>{load ? t(`errors.load.${error.kind}`) : t('errors.page.text')}</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('errors.load.reload')}
      </Button>
    </div>
  );
}
