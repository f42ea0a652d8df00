import { useEffect, useState } from 'react';
import { Alert, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EfileShellRequest } from '@hpc/contracts';
import { useClusterService, useClusters } from '../../clusters';
import { createEfileApi, efileFolderLink } from '../../efile';
import { errorMessage } from '../../../shared/api/error-message';
import { pick } from '../../../shared/i18n/languages';
import { startDownload } from '../../../shared/utils/start-download';
import { PROMPT_ARM_MS } from '../lib/efile-requests';

/**
 * The prompt of one `efile` request from the shell (issue 26 §2): in the tab's pane, never modal and never focused
 * (keys typed for the shell cannot answer it; its buttons wait `PROMPT_ARM_MS`). Open: E-File at that folder of the
 * tab's cluster, in a new browser tab (the shell stays as it is). Download: efile's own check and download calls with
 * the user's token, so efile confines the path to the user's roots and a refusal shows its translated error here.
 */
export function EfileRequestPrompt({
  request,
  clusterId,
  onDone,
}: {
  request: EfileShellRequest;
  clusterId: string;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { clusters } = useClusters();
  const efile = useClusterService(request.verb === 'get' ? clusterId : null, 'efile');
  const [armed, setArmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const id = setTimeout(() => setArmed(true), PROMPT_ARM_MS);
    return () => clearTimeout(id);
  }, []);

  const accept = async () => {
    if (request.verb === 'open') {
      window.open(efileFolderLink(clusterId, request.path), '_blank', 'noopener');
      onDone();
      return;
    }
    if (!efile.url) {
      const cluster = clusters.find((c) => c.clusterId === clusterId);
      const centerName = cluster ? pick(i18n.language, cluster.centerName, cluster.centerNameEn) : clusterId;
      setError(
        efile.error
          ? t(`clusters.${efile.error.messageKey}`, { centerName, service: t('clusters.services.efile') })
          : t('errors.unknown'),
      );
      return;
    }
    setBusy(true);
    try {
      const api = createEfileApi(clusterId, efile.url);
      // The check resolves the path as the user (roots, existence, the zip limit of a folder) before any byte.
      await api.downloadCheck([request.path]);
      startDownload(await api.downloadUrl(request.path));
      onDone();
    } catch (e) {
      setError(errorMessage(e, t) ?? t('errors.unknown'));
    } finally {
      setBusy(false);
    }
  };

  if (error)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="eshell-efile-error"
        title={t('eshell.efile.failed', { path: request.path })}
        description={error}
        action={
          <Button size="small" onClick={onDone} data-testid="eshell-efile-dismiss">
            {t('eshell.efile.dismiss')}
          </Button>
        }
      />
    );
  return (
    <Alert
      type="info"
      showIcon
      data-testid="eshell-efile-prompt"
      data-verb={request.verb}
      title={t(request.verb === 'open' ? 'eshell.efile.askOpen' : 'eshell.efile.askGet')}
      description={
        <>
          <code className="hpc-eshell-efile-path" data-testid="eshell-efile-path">
            {request.path}
          </code>
          <div className="hpc-eshell-efile-note">{t('eshell.efile.note')}</div>
        </>
      }
      action={
        <Space>
          <Button
            size="small"
            type="primary"
            disabled={!armed}
            loading={busy || (request.verb === 'get' && efile.isLoading)}
            onClick={() => void accept()}
            data-testid="eshell-efile-accept"
          >
            {t(request.verb === 'open' ? 'eshell.efile.open' : 'eshell.efile.download')}
          </Button>
          <Button size="small" disabled={busy} onClick={onDone} data-testid="eshell-efile-ignore">
            {t('eshell.efile.ignore')}
          </Button>
        </Space>
      }
    />
  );
}
