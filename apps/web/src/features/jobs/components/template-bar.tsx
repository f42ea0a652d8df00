import { useState } from 'react';
import { App, Button, Form, Input, Modal, Select, Space, Tooltip, type FormInstance } from 'antd';
import { DeleteOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { JobTemplate } from '@hpc/contracts';
import { notifyError } from '../../../shared/api/notify';
import type { JobsApi } from '../api/jobs.api';
import { rules, templateOf, type SubmitValues } from '../lib/submit-rules';

/** "Load template" and "save as template" (files in the user's home, ~/.hpc-portal/job-templates). */
export function TemplateBar({
  api,
  form,
  script,
  onLoad,
}: {
  api: JobsApi;
  form: FormInstance<SubmitValues>;
  script: string;
  onLoad: (t: JobTemplate) => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const key = ['jobs', api.clusterId, 'templates'];
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => api.templates(undefined, { signal }) });
  const [chosen, setChosen] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [nameForm] = Form.useForm<{ name: string }>();
  const save = useMutation({
    mutationFn: (tpl: JobTemplate) => api.saveTemplate({ body: tpl }),
    onSuccess: ({ name }) => {
      void message.success(t('jobs.templates.saved', { name }));
      setSaving(false);
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: notifyError,
  });
  // The list names the templates; the chosen one is read then (a list of whole templates could be hundreds of MB).
  const load = useMutation({
    mutationFn: (name: string) => api.template({ query: { name } }),
    onSuccess: (tpl) => onLoad(tpl),
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (name: string) => api.deleteTemplate({ body: { name } }),
    onSuccess: (_, name) => {
      void message.success(t('jobs.templates.deleted', { name }));
      setChosen(null);
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: notifyError,
  });
  const submitName = () =>
    nameForm
      .validateFields()
      .then(({ name }) => {
        // A second Enter while the first save is on its way does not write the file twice.
        if (!save.isPending) save.mutate(templateOf(name, form.getFieldsValue(true) as SubmitValues, script));
      })
      .catch(() => undefined); // the form shows what is wrong under the field
  const templates = list.data?.list ?? [];
  return (
    <Space wrap className="hpc-jobs-templates">
      <Select
        aria-label={t('jobs.templates.load')}
        className="hpc-jobs-template-select"
        placeholder={t('jobs.templates.load')}
        value={chosen}
        notFoundContent={t('jobs.templates.none')}
        loading={load.isPending}
        onChange={(name: string) => {
          setChosen(name);
          load.mutate(name);
        }}
        options={templates.map((x) => ({ value: x.name, label: x.name }))}
        data-testid="jobs-template-select"
      />
      <Button
        icon={<DeleteOutlined />}
        aria-label={t('jobs.templates.delete')}
        disabled={!chosen}
        onClick={() =>
          chosen &&
          modal.confirm({
            title: t('jobs.templates.delete'),
            content: chosen,
            okText: t('jobs.actions.confirm'),
            cancelText: t('jobs.actions.back'),
            onOk: () => remove.mutate(chosen),
          })
        }
      />
      <Button onClick={() => setSaving(true)} data-testid="jobs-template-save">
        {t('jobs.templates.save')}
      </Button>
      <Tooltip title={t('jobs.templates.where')}>
        <QuestionCircleOutlined aria-label={t('jobs.templates.where')} />
      </Tooltip>
      <Modal
        open={saving}
        title={t('jobs.templates.save')}
        onCancel={() => setSaving(false)}
        confirmLoading={save.isPending}
        onOk={() => void submitName()}
        destroyOnHidden
      >
        <Form form={nameForm} layout="vertical" preserve={false}>
          <Form.Item name="name" label={t('jobs.templates.name')} rules={rules(t).name}>
            {/* Enter saves, as in E-File's name dialogs: typing a name and pressing Enter is what people do. */}
            <Input data-testid="jobs-template-name" onPressEnter={() => void submitName()} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
