import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import '../not-found.css';

/** /404 and every unknown route (spec §2): the text, a link back to login, back and home buttons. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // React Router numbers its history entries: with nothing to go back to (a typed address), go home instead of
  // leaving the site.
  const back = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    void (idx > 0 ? navigate(-1) : navigate('/main-page'));
  };
  return (
    <Result
      className="hpc-not-found"
      status="404"
      title="404"
      subTitle={
        <>
          <p>{t('not-found.text')}</p>
          <Link to="/login">{t('not-found.login')}</Link>
        </>
      }
      extra={[
        <Button key="back" onClick={back}>
          {t('not-found.back')}
        </Button>,
        <Button key="home" type="primary" onClick={() => void navigate('/main-page')}>
          {t('not-found.home')}
        </Button>,
      ]}
    />
  );
}
