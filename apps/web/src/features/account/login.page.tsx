import { LockOutlined, LoginOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Divider, Form, Input, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import type { LoginBody } from '@hpc/contracts';
import { loginErrorMessage } from './login-error';
import { safeRedirect } from './login-redirect';
import { useAuthConfig, useLogin } from './use-auth';
import { useSession } from './use-session';
import './login.page.css';

/** `/login?redirect=…`: user name and password, or single sign-on when the portal has it. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const { user } = useSession();
  const { data: config } = useAuthConfig();
  const login = useLogin();

  // Someone already logged in (another tab, the back button, this login) goes straight on; the next page's code
  // may take a moment, meanwhile a loading state shows (issue 25 §3.2: the body was blank for 1–3 s).
  if (user && !login.isPending)
    return (
      <>
        <Navigate to={target} replace />
        <div className="hpc-page-loading">
          <Spin />
        </div>
      </>
    );

  const submit = (values: LoginBody) =>
    login.mutate(values, { onSuccess: () => void navigate(target, { replace: true }) });
  const error = login.isError ? loginErrorMessage(login.error, t) : null;
  const sso = () => {
    if (!config?.ssoLoginUrl) return;
    const sep = config.ssoLoginUrl.includes('?') ? '&' : '?';
    window.location.assign(`${config.ssoLoginUrl}${sep}redirect=${encodeURIComponent(target)}`);
  };

  return (
    <div className="hpc-login">
      <Card className="hpc-login-card">
        <Typography.Title level={3} className="hpc-login-title">
          {t('account.login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" className="hpc-login-subtitle">
          {t('account.login.subtitle')}
        </Typography.Paragraph>
        {error && <Alert type="error" showIcon title={error} className="hpc-login-error" role="alert" />}
        <Form<LoginBody> layout="vertical" requiredMark={false} onFinish={submit} disabled={login.isPending}>
          <Form.Item
            name="username"
            label={t('account.login.username')}
            rules={[{ required: true, whitespace: true, message: t('account.login.usernameRequired') }]}
          >
            <Input
              prefix={<UserOutlined />}
              autoComplete="username"
              autoFocus
              placeholder={t('account.login.usernamePlaceholder')}
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('account.login.password')}
            rules={[{ required: true, message: t('account.login.passwordRequired') }]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              autoComplete="current-password"
              placeholder={t('account.login.passwordPlaceholder')}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={login.isPending}>
            {t('account.login.submit')}
          </Button>
        </Form>
        {config?.sso && (
          <>
            <Divider plain>{t('account.login.or')}</Divider>
            <Button block size="large" icon={<LoginOutlined />} onClick={sso}>
              {t('account.login.sso')}
            </Button>
          </>
        )}
      </Card>
    </div>
  );
}
