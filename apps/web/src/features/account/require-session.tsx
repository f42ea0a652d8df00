import type { ReactNode } from 'react';
import { Spin } from 'antd';
import { Navigate, useLocation } from 'react-router';
import { loginPathFor } from './login-redirect';
import { useSession } from './use-session';

/**
 * Wraps a page that needs a user (E-File, account pages): a visitor who is not logged in goes to
 * `/login?redirect=<this page>` and comes back after logging in. Public pages (the catalogues) need no wrapper.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { user, isLoading, isAnonymous } = useSession();
  if (isAnonymous) return <Navigate to={loginPathFor(location)} replace />;
  if (isLoading && !user) {
    return (
      <div className="hpc-page-loading">
        <Spin />
      </div>
    );
  }
  return <>{children}</>;
}
