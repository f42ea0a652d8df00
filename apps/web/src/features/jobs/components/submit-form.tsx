import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Space,
  Typography,
} from 'antd';
import { FolderOpenOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError, type PartitionsData } from '@hpc/api-client';
import type { JobTemplate, SubmitBody } from '@hpc/contracts';
import type { TFunction } from 'i18next';
import { pick } from '../../../shared/i18n/languages';
import { usePreferences } from '../../../shared/preferences/preferences';
import { errorMessage } from '../../../shared/api/error-message';
import type { EfileApi } from '../../efile';
import type { JobsApi } from '../api/jobs.api';
import type { SubmitDraft } from '../lib/drafts';
import { formatDuration } from '../lib/job-format';
import { bodyOf, DEFAULT_SCRIPT, rules, scriptProblem, type SubmitValues } from '../lib/submit-rules';
import { FolderPicker } from './folder-picker';
import { TemplateBar } from './template-bar';

const ScriptEditor = lazy(() => import('./script-editor'));
/** Slurm's own default name of a job's output file (a file name, the same in every language). */
const SLURM_DEFAULT_OUTPUT = 'slurm-%j.out';

interface Props {
  api: JobsApi;
  homePath: string;
  efile: EfileApi | null;
  draft: SubmitDraft | null;
  onSubmitted: (jobId: string) => void;
}

/** The partition's limits in a line: max and default time, cores per node, nodes. */
function limitsOf(p: PartitionsData['partitions'][number] | undefined, t: TFunction) {
  if (!p) return '';
  const time = (m: number | null) => (m === null ? t('jobs.form.unlimited') : formatDuration(m * 60));
  return t('jobs.form.partitionLimits', {
    max: time(p.maxTimeMinutes),
    def: time(p.defaultTimeMinutes),
    cpus: t('jobs.form.coresPerNode', { count: p.maxCpusPerNode }),
    nodes: t('jobs.form.nodeCount', { count: p.nodes.total }),
  });
}

/** Submit (issue 22 §3): the form and the script editor side by side, templates, the working directory from E-File. */
export function SubmitForm({ api, homePath, efile, draft, onSubmitted }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { theme } = usePreferences();
  const [form] = Form.useForm<SubmitValues>();
  const [script, setScript] = useState(draft?.script ?? DEFAULT_SCRIPT);
  const [scriptError, setScriptError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [refusal, setRefusal] = useState<{ text: string; reason: string | null } | null>(null);
  const parts = useQuery({
    queryKey: ['jobs', api.clusterId, 'partitions'],
    queryFn: ({ signal }) => api.partitions(undefined, { signal }),
    staleTime: 30_000,
  });
  const partition = Form.useWatch('partition', form);
  const current = parts.data?.partitions.find((p) => p.name === partition);
  const defaults = useMemo(() => {
    const def = parts.data?.partitions.find((p) => p.isDefault) ?? parts.data?.partitions[0];
    return {
      account: parts.data?.accounts.find((a) => a.status === 'Normal')?.name ?? parts.data?.accounts[0]?.name,
      partition: def?.name,
      qos: '',
      nodes: 1,
      tasks: 1,
      cpusPerTask: 1,
      gpus: 0,
      memoryMb: 0,
      timeLimitMinutes: def?.defaultTimeMinutes ?? 60,
      jobName: 'job',
      workDir: homePath,
      output: '',
      error: '',
    } satisfies Partial<SubmitValues>;
  }, [parts.data, homePath]);

  useEffect(() => {
    if (!parts.data) return;
    form.setFieldsValue({ ...defaults, ...draft?.values });
  }, [parts.data, defaults, draft, form]);

  const qc = useQueryClient();
  const submit = useMutation({
    mutationFn: (body: SubmitBody) => api.submit({ body }),
    onSuccess: ({ jobId }) => {
      setRefusal(null);
      // The queue the page turns to shows the new job at once, not at its next poll.
      void qc.invalidateQueries({ queryKey: ['jobs', api.clusterId] });
      void message.success(t('jobs.form.submitted', { jobId }));
      onSubmitted(jobId);
    },
    onError: (e) => {
      const reason =
        isApiError(e) && e.data && typeof e.data === 'object' && 'reason' in e.data
          ? String(e.data.reason)
          : null;
      setRefusal({ text: errorMessage(e, t) ?? '', reason });
    },
  });

  const onFinish = (v: SubmitValues) => {
    const problem = scriptProblem(script, t);
    setScriptError(problem);
    if (problem) return;
    submit.mutate(bodyOf(v, script));
  };
  const loadTemplate = (tpl: JobTemplate) => {
    form.setFieldsValue({ ...tpl, account: form.getFieldValue('account') as string });
    setScript(tpl.script);
    void message.success(t('jobs.templates.loaded', { name: tpl.name }));
  };

  if (parts.isLoading) return <Skeleton active />;
  if (parts.error) return <Alert type="error" showIcon title={errorMessage(parts.error, t) ?? ''} />;
  const accounts = parts.data?.accounts ?? [];
  const r = rules(t);
  return (
    <div className="hpc-jobs-submit" data-testid="jobs-submit">
      {draft?.from ? (
        <Alert
          type="info"
          showIcon
          title={t(draft.from.kind === 'file' ? 'jobs.form.fromFile' : 'jobs.form.fromApp', {
            path: draft.from.name,
            name: pick(i18n.language, draft.from.name, draft.from.nameEn ?? draft.from.name),
          })}
          data-testid="jobs-draft-from"
        />
      ) : null}
      {accounts.length === 0 ? (
        <Alert type="warning" showIcon title={t('jobs.form.noAccount')} data-testid="jobs-no-account" />
      ) : null}
      <TemplateBar api={api} form={form} script={script} onLoad={loadTemplate} />
      <Row gutter={24}>
        <Col xs={24} lg={10}>
          <Form<SubmitValues>
            form={form}
            layout="vertical"
            onFinish={onFinish}
            requiredMark={false}
            data-testid="jobs-form"
          >
            <Form.Item name="account" label={t('jobs.form.account')} rules={[r.required]}>
              <Select
                options={accounts.map((a) => ({
                  value: a.name,
                  label: a.status === 'Normal' ? a.name : `${a.name} ${t('jobs.form.accountDisabled')}`,
                }))}
              />
            </Form.Item>
            <Form.Item
              name="partition"
              label={t('jobs.form.partition')}
              rules={[r.required]}
              extra={limitsOf(current, t)}
            >
              <Select
                options={(parts.data?.partitions ?? []).map((p) => ({ value: p.name, label: p.name }))}
              />
            </Form.Item>
            <Form.Item name="qos" label={t('jobs.form.qos')}>
              <Select
                options={[
                  { value: '', label: t('jobs.form.qosDefault') },
                  ...(current?.qos ?? []).map((q) => ({ value: q, label: q })),
                ]}
              />
            </Form.Item>
            <div className="hpc-jobs-numbers">
              <Form.Item
                name="nodes"
                label={t('jobs.form.nodes')}
                rules={r.positive(current?.maxNodes ?? undefined)}
              >
                <InputNumber precision={0} />
              </Form.Item>
              <Form.Item name="tasks" label={t('jobs.form.tasks')} rules={r.positive()}>
                <InputNumber precision={0} />
              </Form.Item>
              <Form.Item
                name="cpusPerTask"
                label={t('jobs.form.cpusPerTask')}
                rules={r.positive(current?.maxCpusPerNode || undefined)}
              >
                <InputNumber precision={0} />
              </Form.Item>
              <Form.Item name="gpus" label={t('jobs.form.gpus')} rules={r.nonNegative()}>
                <InputNumber precision={0} />
              </Form.Item>
              <Form.Item
                name="memoryMb"
                label={t('jobs.form.memoryMb')}
                tooltip={t('jobs.form.memoryMbHint')}
                rules={r.nonNegative(current?.maxMemoryMb || undefined)}
              >
                <InputNumber precision={0} />
              </Form.Item>
              <Form.Item
                name="timeLimitMinutes"
                label={t('jobs.form.timeLimit')}
                rules={r.positive(current?.maxTimeMinutes ?? undefined)}
              >
                <InputNumber precision={0} />
              </Form.Item>
            </div>
            <Form.Item name="jobName" label={t('jobs.form.jobName')} rules={r.name}>
              <Input />
            </Form.Item>
            <Form.Item label={t('jobs.form.workDir')} required>
              <Space.Compact block>
                <Form.Item name="workDir" noStyle rules={r.path}>
                  <Input aria-label={t('jobs.form.workDir')} />
                </Form.Item>
                <Button
                  icon={<FolderOpenOutlined />}
                  disabled={!efile}
                  onClick={() => setPicking(true)}
                  data-testid="jobs-pick-dir"
                >
                  {t('jobs.form.pick')}
                </Button>
              </Space.Compact>
            </Form.Item>
            <Form.Item name="output" label={t('jobs.form.output')} extra={t('jobs.form.outputHint')}>
              <Input placeholder={SLURM_DEFAULT_OUTPUT} />
            </Form.Item>
            <Form.Item name="error" label={t('jobs.form.error')}>
              <Input placeholder={SLURM_DEFAULT_OUTPUT} />
            </Form.Item>
            {refusal ? (
              <Alert
                type="error"
                showIcon
                data-testid="jobs-refusal"
                title={refusal.text}
                description={
                  refusal.reason ? t('jobs.refusal.reason', { reason: refusal.reason }) : undefined
                }
              />
            ) : null}
            <Space className="hpc-jobs-actions">
              <Button
                type="primary"
                htmlType="submit"
                loading={submit.isPending}
                disabled={accounts.length === 0}
                data-testid="jobs-submit-button"
              >
                {t('jobs.form.submit')}
              </Button>
              <Button
                onClick={() => {
                  form.setFieldsValue(defaults);
                  setScript(DEFAULT_SCRIPT);
                  setRefusal(null);
                }}
              >
                {t('jobs.form.reset')}
              </Button>
            </Space>
          </Form>
        </Col>
        <Col xs={24} lg={14}>
          <Typography.Title level={5} id="job-script-label">
            {t('jobs.form.script')}
          </Typography.Title>
          <Suspense fallback={<Skeleton active />}>
            <ScriptEditor
              value={script}
              dark={theme === 'dark_blue'}
              label={t('jobs.form.script')}
              onChange={setScript}
            />
          </Suspense>
          {scriptError ? (
            <Typography.Text type="danger" data-testid="jobs-script-error">
              {scriptError}
            </Typography.Text>
          ) : null}
        </Col>
      </Row>
      {picking && efile ? (
        <FolderPicker
          api={efile}
          onClose={() => setPicking(false)}
          onPick={(p) => {
            form.setFieldValue('workDir', p);
            setPicking(false);
          }}
        />
      ) : null}
    </div>
  );
}
