import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Progress, Select, Space, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Limits, type ModelCopyJob } from '@hpc/contracts';
import { ApiError } from '@hpc/api-client';
import { errorMessage } from '../../../shared/api/error-message';
import { pick } from '../../../shared/i18n/languages';
import { useClusters } from '../../clusters';
import { formatSize } from '../../../shared/utils/format-size';
import { api, identity } from '../../../shared/api/client';

interface Props {
  open: boolean;
  onClose: () => void;
  modelId: number;
  /** The default folder name (the model's English name). */
  defaultName: string;
}

interface FormValues {
  clusterId: string;
  parentPath: string;
  name: string;
}

/** The folder name as E-File will take it: no "/", at most 70 characters (spec §5). */
const safeName = (name: string) => name.replace(/[/\\]/g, '-').slice(0, Limits.nameMaxLength);

/**
 * "Copy to my E-File" (issue 13 §3): pick a centre (its home folder comes from `proxy/efile/info`), a folder and a
 * name, then follow the copy's progress; it can be cancelled, and once done the folder opens in E-File.
 */
export function CopyToEfileDialog({ open, onClose, modelId, defaultName }: Props) {
  const { t, i18n } = useTranslation();
  const { clusters } = useClusters();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const clusterId = Form.useWatch('clusterId', form);
  const [jobId, setJobId] = useState<string | null>(null);

  const info = useQuery({
    queryKey: ['models', 'efile-info', clusterId],
    queryFn: ({ signal }) => identity.clusters.efileInfo(clusterId, { signal }),
    enabled: open && Boolean(clusterId),
    retry: false,
    meta: { silent: true },
  });
  useEffect(() => {
    if (info.data) form.setFieldValue('parentPath', info.data.homePath);
  }, [info.data, form]);
  useEffect(() => {
    if (open && !form.getFieldValue('clusterId') && clusters[0]) {
      form.setFieldsValue({ clusterId: clusters[0].clusterId, name: safeName(defaultName) });
    }
  }, [open, clusters, form, defaultName]);

  const start = useMutation({
    mutationFn: (v: FormValues) => api.models.startCopy(modelId, v),
    meta: { silent: true },
    onSuccess: (job) => {
      setJobId(job.jobId);
      // A copy is a download of the model (spec §7: the count call tolerates any answer, so it stays silent).
      void api.models
        .count(modelId)
        .catch(() => undefined)
        .then(() => queryClient.invalidateQueries({ queryKey: ['models', 'detail', modelId] }));
    },
  });
  const progress = useQuery({
    queryKey: ['models', 'copy', jobId],
    queryFn: ({ signal }) => api.models.copyProgress(jobId!, { signal }),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== 'running' ? false : 500),
  });
  const cancel = useMutation({ mutationFn: () => api.models.cancelCopy(jobId!) });

  const job: ModelCopyJob | undefined = progress.data ?? start.data;
  const running = job?.state === 'running';
  const close = () => {
    onClose();
    // A running copy goes on on the server; closing only stops watching it.
    setJobId(null);
    start.reset();
  };

  // A failed copy's error as a failed call's: its message shown only when it is in the user's language.
  const jobError = (e: NonNullable<ModelCopyJob['error']>) =>
    errorMessage(new ApiError({ ...e, kind: 'api', status: 200 }), t);

  const footer = job
    ? [
        running && (
          <Button key="cancel" danger loading={cancel.isPending} onClick={() => cancel.mutate()}>
            {t('models.copy.cancel')}
          </Button>
        ),
        job.state === 'success' && (
          <Button
            key="open"
            type="primary"
            onClick={() =>
              void navigate(
                `/efile?${new URLSearchParams({ cluster: job.clusterId, path: job.targetPath }).toString()}`,
              )
            }
          >
            {t('models.copy.open')}
          </Button>
        ),
        <Button key="close" onClick={close}>
          {t('models.copy.close')}
        </Button>,
      ]
    : [
        <Button key="close" onClick={close}>
          {t('models.copy.close')}
        </Button>,
        <Button
          key="start"
          type="primary"
          loading={start.isPending}
          disabled={!info.data}
          onClick={() =>
            void form.validateFields().then(
              (v) => start.mutate(v),
              // The form shows what is wrong beside each field.
              () => undefined,
            )
          }
        >
          {t('models.copy.start')}
        </Button>,
      ];

  return (
    <Modal open={open} title={t('models.copy.title')} onCancel={close} footer={footer} destroyOnHidden>
      {job ? (
        <div className="hpc-copy-progress" data-testid="model-copy-progress">
          <Typography.Paragraph>
            {t('models.copy.target')}
            {t('common.colon')}
            <Typography.Text code>{job.targetPath}</Typography.Text>
          </Typography.Paragraph>
          <Progress
            percent={job.bytesTotal ? Math.floor((job.bytesDone / job.bytesTotal) * 100) : 100}
            status={job.state === 'error' ? 'exception' : job.state === 'success' ? 'success' : 'active'}
          />
          <Typography.Paragraph type="secondary">
            {t('models.copy.progress', {
              done: formatSize(job.bytesDone),
              total: formatSize(job.bytesTotal),
              files: job.filesDone,
              count: job.filesTotal,
            })}
          </Typography.Paragraph>
          {job.state === 'success' && <Alert type="success" showIcon message={t('models.copy.done')} />}
          {job.state === 'cancelled' && <Alert type="info" showIcon message={t('models.copy.cancelled')} />}
          {job.state === 'error' && job.error && (
            <Alert type="error" showIcon message={jobError(job.error)} />
          )}
        </div>
      ) : (
        <Form form={form} layout="vertical" requiredMark={false}>
          <Form.Item name="clusterId" label={t('models.copy.cluster')} rules={[{ required: true }]}>
            <Select
              options={clusters.map((c) => ({
                value: c.clusterId,
                label:
                  pick(i18n.language, c.centerName, c.centerNameEn) +
                  t('common.parenthesized', { text: c.clusterUserName }),
              }))}
            />
          </Form.Item>
          {info.error && <Alert type="error" showIcon message={errorMessage(info.error, t)} />}
          <Form.Item
            name="parentPath"
            label={t('models.copy.parent')}
            extra={info.data ? t('models.copy.parentHint', { home: info.data.homePath }) : undefined}
            rules={[{ required: true, message: t('models.copy.parentRequired') }]}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('models.copy.name')}
            rules={[
              { required: true, whitespace: true, message: t('models.copy.nameRequired') },
              {
                max: Limits.nameMaxLength,
                message: t('models.copy.nameTooLong', { max: Limits.nameMaxLength }),
              },
              { pattern: /^[^/\\]*$/, message: t('models.copy.nameSlash') },
            ]}
          >
            <Input />
          </Form.Item>
          {start.error && <Alert type="error" showIcon message={errorMessage(start.error, t)} />}
          <Space />
        </Form>
      )}
    </Modal>
  );
}
