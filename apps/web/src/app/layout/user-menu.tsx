import {
  ClusterOutlined,
  IdcardOutlined,
  LoginOutlined,
  LogoutOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, Tag, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { pick } from '../../shared/i18n/languages';
import { LOGIN_PATH, loginPathFor, useLogout, useSession } from '../../features/account';
import { isDisabledCluster, nameSaysDisabled, useVisibleClusters } from '../../features/clusters';
import './user-menu.css';

/**
 * The header's user menu (in the shell, which composes account and clusters, so neither feature imports the other
 * back): the user's name, their computing centres (with the compute user name on each), and
 * logout. Before anyone is logged in it is a login link that comes back here.
 */
export function UserMenu() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { user, isAnonymous } = useSession();
  const clusters = useVisibleClusters();
  const logout = useLogout();
  const navigate = useNavigate();

  if (!user) {
    if (!isAnonymous || location.pathname === LOGIN_PATH) return null;
    return (
      <Link to={loginPathFor(location)}>
        <Button type="text" className="hpc-header-button" icon={<LoginOutlined />}>
          {t('account.userMenu.login')}
        </Button>
      </Link>
    );
  }

  const name = user.userInfo.fullName || user.userInfo.username;
  const items: MenuProps['items'] = [
    {
      key: 'who',
      type: 'group',
      label: (
        <span className="hpc-user-menu-who">
          {name}
          {user.userInfo.fullName && user.userInfo.fullName !== user.userInfo.username && (
            <span className="hpc-user-menu-login"> ({user.userInfo.username})</span>
          )}
        </span>
      ),
    },
    { type: 'divider' },
    {
      key: 'clusters',
      type: 'group',
      label: t('account.userMenu.clusters'),
      children: clusters.length
        ? clusters.map((c) => {
            const centre = pick(i18n.language, c.centerName, c.centerNameEn);
            return {
              key: `cluster:${c.clusterId}`,
              icon: <ClusterOutlined />,
              label: (
                <span className="hpc-user-menu-cluster" data-testid="user-menu-cluster">
                  <span>{centre}</span>
                  <span className="hpc-user-menu-cun">{c.clusterUserName}</span>
                  {isDisabledCluster(c) && !nameSaysDisabled(centre) && (
                    <Tag color="default">{t('account.userMenu.clusterDisabled')}</Tag>
                  )}
                  {c.accountDetail?.status === 'Disable' && (
                    <Tag color="error">{t('account.userMenu.accountDisabled')}</Tag>
                  )}
                </span>
              ),
            };
          })
        : [{ key: 'none', disabled: true, label: t('account.userMenu.noClusters') }],
    },
    { type: 'divider' },
    {
      key: 'user-center',
      icon: <IdcardOutlined />,
      label: t('user-centre.menu'),
      onClick: () => void navigate('/user-center'),
    },
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: t('account.userMenu.logout'),
      disabled: logout.isPending,
      onClick: () => logout.mutate(),
    },
  ];

  return (
    <Dropdown trigger={['click']} menu={{ items }} placement="bottomRight">
      <Button
        type="text"
        className="hpc-header-button hpc-user-menu"
        // The visible user name is part of the accessible name (WCAG 2.5.3 "label in name").
        aria-label={`${t('account.userMenu.label')}${t('common.colon')}${name}`}
      >
        <Avatar size="small" icon={<UserOutlined />} />
        <span className="hpc-user-menu-name" data-testid="user-menu-name">
          {name}
        </span>
      </Button>
    </Dropdown>
  );
}
