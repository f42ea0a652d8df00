import { Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '../../shared/config/site-config';

export function AppFooter() {
  const { t } = useTranslation();
  const site = useSiteConfig();
  return (
    <Layout.Footer className="hpc-footer">
      <span>{t('common.footer.copyright', { year: new Date().getFullYear() })}</span>
      <a href={site.icpUrl} target="_blank" rel="noopener noreferrer">
        {site.icp}
      </a>
    </Layout.Footer>
  );
}
