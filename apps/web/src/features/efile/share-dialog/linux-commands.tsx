import { useState } from 'react';
import { Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../shared/api/notify';
import { CopyCommand } from '../../../shared/ui/copy-command';
import type { LinuxCommands as Commands } from '@hpc/api-client';
import type { EfileApi } from '../api/efile.api';

/**
 * The generated Linux upload and download commands (curl, no client to install), valid only today or until the
 * account expires. Upload needs a target folder ("Please enter the upload file or folder path").
 */
export function LinuxCommands({
  api,
  downloadPath,
  uploadDir,
}: {
  api: EfileApi;
  downloadPath: string;
  uploadDir: string;
}) {
  const { t } = useTranslation();
  const [dir, setDir] = useState(uploadDir);
  const [dirError, setDirError] = useState(false);
  const [up, setUp] = useState<Commands | null>(null);
  const [down, setDown] = useState<Commands | null>(null);

  const genUpload = async () => {
    if (!dir.trim()) return setDirError(true);
    try {
      setUp(await api.linuxUpload(dir.trim()));
    } catch (e) {
      notifyError(e);
    }
  };
  const genDownload = async () => {
    try {
      setDown(await api.linuxDownload([downloadPath]));
    } catch (e) {
      notifyError(e);
    }
  };

  return (
    <div className="efile-linux" data-testid="efile-linux">
      <Typography.Paragraph type="secondary">{t('efile.linux.note')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item
          label={t('efile.linux.uploadPath')}
          validateStatus={dirError ? 'error' : undefined}
          help={dirError ? t('efile.linux.pathRequired') : undefined}
        >
          <Input.Search
            value={dir}
            onChange={(e) => {
              setDir(e.target.value);
              setDirError(false);
            }}
            enterButton={t('efile.linux.generateUpload')}
            onSearch={() => void genUpload()}
            placeholder={t('efile.linux.pathRequired')}
          />
        </Form.Item>
      </Form>
      {up?.commands.map((c) => (
        <div key={c.kind}>
          {/* Which block is for what, and what to put in place of its FILE or DIR. */}
          <Typography.Text strong>{t(`efile.linux.upload.${c.kind}`)}</Typography.Text>
          <CopyCommand command={c.command} />
        </div>
      ))}
      <Button onClick={() => void genDownload()}>{t('efile.linux.generateDownload')}</Button>
      {down?.commands.map((c) => (
        <div key={c.kind}>
          <Typography.Text strong>{t(`efile.linux.download.${c.kind}`)}</Typography.Text>
          <CopyCommand command={c.command} />
        </div>
      ))}
    </div>
  );
}
