import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UserProfile } from '@hpc/contracts';
import { isApiError } from '@hpc/api-client';
import { PortalCodes } from '@hpc/contracts';
import { errorMessage } from '../../../shared/api/error-message';
import { notifySuccess } from '../../../shared/api/notify';
import { identity } from '../../../shared/api/client';
import { SESSIONS_KEY } from './sessions-card';

const MIN_LENGTH = 8;

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Change password for local accounts (`POST /api/user/password`), with the spec's "confirm password must equal new
 * password" (§5); a single sign-on user without a local password is told where to change it. A change signs the
 * user out everywhere else (the page says so before and after).
 */
export function PasswordCard({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (v: Values) =>
      identity.user.changePassword({ oldPassword: v.oldPassword, newPassword: v.newPassword }),
    // Shown in the card: a wrong old password says so in the user's language (the server's text is English).
    meta: { silent: true },
    onSuccess: (r) => {
      form.resetFields();
      // The portal ended every other session of the user (issue 25 §1.2): say so, and refresh their list.
      notifySuccess(
        r.endedSessions > 0
          ? t('user-centre.password.changedEnded', { count: r.endedSessions })
          : t('user-centre.password.changed'),
      );
      void client.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });

  return (
    <Card title={t('user-centre.password.title')} variant="borderless">
      {!profile.hasPassword ? (
        <Alert
          type="info"
          showIcon
          data-testid="sso-password-notice"
          message={t('user-centre.password.sso')}
          description={
            profile.ssoProvider
              ? t('user-centre.password.ssoWhere', { provider: profile.ssoProvider })
              : t('user-centre.password.ssoAdmin')
          }
        />
      ) : (
        <Form
          form={form}
          layout="vertical"
          className="hpc-password-form"
          onFinish={(v) => change.mutate(v)}
          requiredMark={false}
        >
          <Typography.Paragraph type="secondary" data-testid="password-ends-others">
            {t('user-centre.password.endsOthers')}
          </Typography.Paragraph>
          <Form.Item
            name="oldPassword"
            label={t('user-centre.password.old')}
            rules={[{ required: true, message: t('user-centre.password.required') }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="newPassword"
            label={t('user-centre.password.new')}
            rules={[
              { required: true, message: t('user-centre.password.required') },
              { min: MIN_LENGTH, message: t('user-centre.password.tooShort', { min: MIN_LENGTH }) },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('user-centre.password.confirm')}
            dependencies={['newPassword']}
            rules={[
              { required: true, message: t('user-centre.password.required') },
              ({ getFieldValue }) => ({
                validator: (_, value) =>
                  !value || value === getFieldValue('newPassword')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('user-centre.password.mismatch'))),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          {change.error && (
            <Alert
              className="hpc-password-error"
              type="error"
              showIcon
              message={
                isApiError(change.error) && change.error.code === PortalCodes.loginFailed
                  ? t('user-centre.password.wrongOld')
                  : errorMessage(change.error, t)
              }
            />
          )}
          <Button type="primary" htmlType="submit" loading={change.isPending}>
            {t('user-centre.password.submit')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
