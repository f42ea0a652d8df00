import { Type, type Static } from 'typebox';
import { Locale } from './common';
import { Envelope } from './envelope';

/**
 * Identity contracts. The per-cluster token is the one contract between portal (which signs it) and efile (which
 * verifies it): an EdDSA JWT with these claims, audience = clusterId, subject = portal user id, at most 12 h.
 */
export const ClusterTokenClaims = Type.Object({
  /** Portal user id. */
  sub: Type.String(),
  /** clusterId. */
  aud: Type.String(),
  /** The user's compute user name on that cluster. */
  cun: Type.String(),
  /** The compute user's home path on the cluster file system, e.g. /public/home/demo. */
  home: Type.String(),
  /** Further cluster paths the portal grants (shared storage, spec §7 queryMultiClusterAccessPath). */
  paths: Type.Array(Type.String()),
  /** Account status on that cluster: efile refuses file operations with "1007" when it is 'Disable'. */
  st: Type.Union([Type.Literal('Normal'), Type.Literal('Disable')]),
  /** Account expiry (ms since epoch) or null: the Linux commands of efile are valid until then at the latest. */
  exp_acct: Type.Union([Type.Integer(), Type.Null()]),
  /**
   * 'fastrans' on the fast-transfer client's day token (FASTRANS_TOKEN_USE): it may live 24 h instead of 12, and
   * efile re-checks the user's rights of the moment on every use of it, as for a Linux command.
   */
  use: Type.Optional(Type.String()),
  /** The portal account the compute user is charged to on that cluster (null: none), e.g. for the job service. */
  acct: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /**
   * The portal session the token was issued for (not the cookie, nor anything that leads to it): when that session
   * ends (logout, password change, "sign out"), every cluster service refuses the token at once (issue 25 §1.3,
   * the revocation store of `@hpc/server-kit`). Absent on tokens the portal signs for itself (model copies).
   */
  sid: Type.Optional(Type.String()),
});
export type ClusterTokenClaims = Static<typeof ClusterTokenClaims>;

/**
 * A portal user's rights on one cluster as they are NOW (what a fresh cluster token would carry). efile asks for them
 * on every use of something that outlives the token it was made with: a share, a Linux command. `null`: the user is
 * unknown or disabled, or has no compute user on that cluster any more.
 */
export const OwnerRights = Type.Object({
  cun: Type.String(),
  home: Type.String(),
  paths: Type.Array(Type.String()),
  st: Type.Union([Type.Literal('Normal'), Type.Literal('Disable')]),
  exp_acct: Type.Union([Type.Integer(), Type.Null()]),
  /** The portal account charged there (null: none): the job service's account check (issue 22 §2). */
  acct: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type OwnerRights = Static<typeof OwnerRights>;

/**
 * Why rights of today refuse something made earlier (a Linux command, a day token): `null` when they still allow
 * it. The same four rules everywhere: the portal user is gone or has no compute user here any more, the compute
 * user changed, the account is disabled, or the account has ended.
 */
export function refusalOf(
  rights: OwnerRights | null,
  cun: string,
  now: number,
): 'no-user' | 'disabled' | 'expired' | null {
  if (!rights || rights.cun !== cun) return 'no-user';
  if (rights.st === 'Disable') return 'disabled';
  if (rights.exp_acct !== null && rights.exp_acct <= now) return 'expired';
  return null;
}
export const OwnerRightsQuery = Type.Object({
  clusterId: Type.String({ minLength: 1, maxLength: 64 }),
  sub: Type.String({ minLength: 1, maxLength: 128 }),
});
export const OwnerRightsResponse = Envelope(Type.Union([OwnerRights, Type.Null()]));

/* ------------------------------------------------------------------------------------------------------------------
 * Browser ↔ portal identity calls (spec §3 "User", §7 "Cluster and service calls"). The web builds the login page,
 * the alert bar and service discovery on these.
 * ---------------------------------------------------------------------------------------------------------------- */

export const AccountStatus = Type.Union([Type.Literal('Normal'), Type.Literal('Disable')]);
export type AccountStatus = Static<typeof AccountStatus>;

export const UserRole = Type.Union([Type.Literal('manager'), Type.Literal('user')]);
export type UserRole = Static<typeof UserRole>;

export const MemberType = Type.Union([Type.Literal('admin'), Type.Literal('member')]);
export type MemberType = Static<typeof MemberType>;

/** One entry of a service list held as JSON text in the cluster params (spec §3). */
export const ServiceEntry = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 1024 }),
  enable: Type.Union([Type.Literal('true'), Type.Literal('false')]),
});
export type ServiceEntry = Static<typeof ServiceEntry>;

/** The cluster params that hold a service list (JSON text of `ServiceEntry[]`). */
export const SERVICE_LIST_PARAMS = [
  'efileUrl',
  'gridview_service',
  'sothisai_service',
  'sshAddressList',
] as const;
export type ServiceListParam = (typeof SERVICE_LIST_PARAMS)[number];

/** The params map of a cluster: `default_user_home_path`, the service lists as JSON text, and any operator key. */
export const ClusterParams = Type.Record(Type.String(), Type.String());
export type ClusterParams = Static<typeof ClusterParams>;

/** A computing centre. `disabled` is true when its name contains 停用; such clusters sort last. */
export const ClusterSummary = Type.Object({
  clusterId: Type.String(),
  centerName: Type.String(),
  centerNameEn: Type.String(),
  disabled: Type.Boolean(),
});
export type ClusterSummary = Static<typeof ClusterSummary>;

export const Cluster = Type.Object({ ...ClusterSummary.properties, params: ClusterParams });
export type Cluster = Static<typeof Cluster>;

/** Account details (spec §3 accountDetail). Balance in yuan (two decimals); times in ms since the epoch. */
export const AccountDetail = Type.Object({
  accountId: Type.String(),
  name: Type.String(),
  status: AccountStatus,
  balance: Type.Number(),
  endUseTime: Type.Union([Type.Integer(), Type.Null()]),
  createTime: Type.Integer(),
});
export type AccountDetail = Static<typeof AccountDetail>;

/** The current user's compute user on one cluster, with the cluster and the membership of the account used there. */
export const ClusterUserDetail = Type.Object({
  ...Cluster.properties,
  clusterUserName: Type.String(),
  homePath: Type.String(),
  accountId: Type.Union([Type.String(), Type.Null()]),
  memberType: Type.Union([MemberType, Type.Null()]),
  adminFullName: Type.String(),
  groupId: Type.Union([Type.String(), Type.Null()]),
});
export type ClusterUserDetail = Static<typeof ClusterUserDetail>;

export const ClusterUserBaseInfo = Type.Object({
  ...ClusterUserDetail.properties,
  accountDetail: Type.Union([AccountDetail, Type.Null()]),
});
export type ClusterUserBaseInfo = Static<typeof ClusterUserBaseInfo>;

export const ClusterListQuery = Type.Object({
  clusterId: Type.Optional(Type.String({ maxLength: 32 })),
  /** Substring of the Chinese or English centre name. */
  centerName: Type.Optional(Type.String({ maxLength: 100 })),
});
export type ClusterListQuery = Static<typeof ClusterListQuery>;

export const CanApplyQuery = Type.Object({
  /** The main site's host: clusters whose `site_hosts` param does not list it are left out. */
  fromHost: Type.Optional(Type.String({ maxLength: 255 })),
});
export type CanApplyQuery = Static<typeof CanApplyQuery>;

export const ApplicableCluster = Type.Object({
  ...ClusterSummary.properties,
  /** The user already has a compute user there. */
  applied: Type.Boolean(),
});
export type ApplicableCluster = Static<typeof ApplicableCluster>;

export const AccessPathBody = Type.Object({
  /** Restrict the answer to these clusters; all of the user's clusters when absent. */
  clusterIds: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 100 })),
});
export type AccessPathBody = Static<typeof AccessPathBody>;

/** clusterId → shared storage paths the user may use there. */
export const AccessPathMap = Type.Record(Type.String(), Type.Array(Type.String()));
export type AccessPathMap = Static<typeof AccessPathMap>;

export const EfileInfoQuery = Type.Object({ clusterId: Type.Optional(Type.String({ maxLength: 32 })) });
export type EfileInfoQuery = Static<typeof EfileInfoQuery>;

/** spec §3 "E-File info". `efileUrl` is the enabled URL picked round-robin by user id; `efileUrls` all enabled. */
export const EfileInfo = Type.Object({
  clusterId: Type.String(),
  efileUrl: Type.String(),
  efileUrls: Type.Array(Type.String()),
  homePath: Type.String(),
  username: Type.String(),
});
export type EfileInfo = Static<typeof EfileInfo>;

/** The anonymous share recipient's question: which efile instances serve this cluster (a share link names it). */
export const PublicEfileUrlsQuery = Type.Object({
  clusterId: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' }),
});
export type PublicEfileUrlsQuery = Static<typeof PublicEfileUrlsQuery>;

/** The enabled efile URLs of a cluster, nothing else about it; empty for an unknown cluster or none enabled. */
export const PublicEfileUrls = Type.Object({ urls: Type.Array(Type.String()) });
export type PublicEfileUrls = Static<typeof PublicEfileUrls>;

/** A user account as the alert bar sees it: grouped by accountId over the user's clusters (spec §3). */
export const UserAccount = Type.Object({
  ...AccountDetail.properties,
  clusterIds: Type.Array(Type.String()),
  /** Centre names joined with 、 (Chinese) and with ", " (English). */
  centerNames: Type.String(),
  centerNamesEn: Type.String(),
});
export type UserAccount = Static<typeof UserAccount>;

export const AlertKind = Type.Union([
  Type.Literal('disabled'),
  Type.Literal('lowBalance'),
  Type.Literal('expiring'),
  Type.Literal('expired'),
]);
export type AlertKind = Static<typeof AlertKind>;

/** An account that needs the alert bar, with the reasons computed from `Limits` (balance ≤ 100, expiry ≤ 7 days). */
export const AccountAlert = Type.Object({
  ...UserAccount.properties,
  kinds: Type.Array(AlertKind),
  /** Whole days until endUseTime (negative once past), null without an end time. */
  daysLeft: Type.Union([Type.Integer(), Type.Null()]),
});
export type AccountAlert = Static<typeof AccountAlert>;

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 256 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const PasswordChangeBody = Type.Object({
  oldPassword: Type.String({ minLength: 1, maxLength: 256 }),
  newPassword: Type.String({ minLength: 8, maxLength: 256 }),
});
export type PasswordChangeBody = Static<typeof PasswordChangeBody>;
/** The answer to a password change: how many other sessions of the user it ended (the one that asked stays). */
export const PasswordChangeResult = Type.Object({ endedSessions: Type.Integer({ minimum: 0 }) });
export type PasswordChangeResult = Static<typeof PasswordChangeResult>;
export const PasswordChangeResponse = Envelope(PasswordChangeResult);

/** The user centre's profile (`GET /api/user/profile`): who the user is and how they may change their password. */
export const UserProfile = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  fullName: Type.String(),
  email: Type.String(),
  role: UserRole,
  createdAt: Type.Integer(),
  /** A local password exists: the user centre offers to change it. */
  hasPassword: Type.Boolean(),
  /** Linked to single sign-on; with no local password the password is changed at the identity provider. */
  sso: Type.Boolean(),
  /** The OpenID provider the user is linked to: where a single sign-on password is changed. */
  ssoProvider: Type.Union([Type.String(), Type.Null()]),
});
export type UserProfile = Static<typeof UserProfile>;

export const ThemeName = Type.Union([Type.Literal('dark_blue'), Type.Literal('light_blue')]);
export type ThemeName = Static<typeof ThemeName>;

/** Interface preferences kept per user on the server (null: never chosen, the browser's own choice stands). */
/** A Dashboard quick entry: the id of a portal feature the user put there (issue 22 §4). */
export const DashboardEntry = Type.String({ pattern: '^[a-z][a-z0-9-]{0,31}$' });
export const UserPreferences = Type.Object({
  language: Type.Union([Locale, Type.Null()]),
  theme: Type.Union([ThemeName, Type.Null()]),
  /** The Dashboard's quick entries in the user's order (null: never chosen, the default set). */
  dashboardEntries: Type.Union([Type.Array(DashboardEntry, { maxItems: 32 }), Type.Null()]),
});
export type UserPreferences = Static<typeof UserPreferences>;

/** `PUT /api/user/preferences` (JSON): the preferences to change; absent keys are kept. */
export const UserPreferencesBody = Type.Object(
  {
    language: Type.Optional(Locale),
    theme: Type.Optional(ThemeName),
    dashboardEntries: Type.Optional(Type.Array(DashboardEntry, { maxItems: 32, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type UserPreferencesBody = Static<typeof UserPreferencesBody>;

export const UserProfileResponse = Envelope(UserProfile);
export const UserPreferencesResponse = Envelope(UserPreferences);

/**
 * One of the user's own sessions in the user centre (`GET /api/user/sessions`): `id` is the session's public id (the
 * cluster tokens' `sid`), never the cookie; `current` is the session asking.
 */
export const UserSession = Type.Object({
  id: Type.String(),
  current: Type.Boolean(),
  /** The client address at login, as the portal saw it. */
  ip: Type.String(),
  userAgent: Type.String(),
  authMethod: Type.Union([Type.Literal('password'), Type.Literal('oidc')]),
  createdAt: Type.Integer(),
  /** Last use (ms), kept to the minute. */
  lastSeenAt: Type.Integer(),
});
export type UserSession = Static<typeof UserSession>;
export const UserSessionsResponse = Envelope(Type.Array(UserSession));

/** `POST /api/user/sessions/end`: the session to sign out (one of the user's own). */
export const SessionEndBody = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type SessionEndBody = Static<typeof SessionEndBody>;
/** How many sessions a sign-out ended. */
export const SessionsEnded = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
export type SessionsEnded = Static<typeof SessionsEnded>;
export const SessionsEndedResponse = Envelope(SessionsEnded);

/**
 * A fast-transfer day token or a Linux command issued to the user today (`GET /api/user/credentials`): `id` is the
 * SHA-256 of the secret (the secret itself is not kept), `detail` the folder or the command's direction and paths.
 */
export const IssuedCredential = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('fastrans'), Type.Literal('linux')]),
  clusterId: Type.String(),
  issuedAt: Type.Integer(),
  expiresAt: Type.Integer(),
  detail: Type.String(),
});
export type IssuedCredential = Static<typeof IssuedCredential>;
export const IssuedCredentialsResponse = Envelope(Type.Array(IssuedCredential));
/** `POST /api/user/credentials/revoke`: the day token or Linux command to revoke (one of the user's own). */
export const CredentialRevokeBody = Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{64}$' }) });
export type CredentialRevokeBody = Static<typeof CredentialRevokeBody>;

export const UserInfo = Type.Object({
  username: Type.String(),
  fullName: Type.String(),
  email: Type.String(),
  role: UserRole,
  /** How this session logged in. */
  authMethod: Type.Union([Type.Literal('password'), Type.Literal('oidc')]),
});
export type UserInfo = Static<typeof UserInfo>;

/** One per-cluster token (a `ClusterTokenClaims` JWT) for the efile instances of that cluster. */
export const ClusterTokenEntry = Type.Object({
  clusterId: Type.String(),
  token: Type.String(),
  clusterUserName: Type.String(),
  /** Token expiry, ms since the epoch: refresh (GET /api/user/info or POST /api/auth/refresh) before it. */
  expiresAt: Type.Integer(),
});
export type ClusterTokenEntry = Static<typeof ClusterTokenEntry>;

export const SessionInfo = Type.Object({
  /** The value to send in the CSRF header (also readable from the CSRF cookie). */
  csrfToken: Type.String(),
  /** When the session ends at the latest, and when it ends if idle from now on (ms since the epoch). */
  expiresAt: Type.Integer(),
  idleExpiresAt: Type.Integer(),
});
export type SessionInfo = Static<typeof SessionInfo>;

/** spec §3 "User": id, userInfo, tokenList; plus the session's CSRF token and expiry. */
export const CurrentUser = Type.Object({
  id: Type.Integer(),
  userInfo: UserInfo,
  tokenList: Type.Array(ClusterTokenEntry),
  session: SessionInfo,
});
export type CurrentUser = Static<typeof CurrentUser>;

export const TokenRefresh = Type.Object({ tokenList: Type.Array(ClusterTokenEntry) });
export type TokenRefresh = Static<typeof TokenRefresh>;

/** What the login page needs before anyone is logged in. */
export const AuthConfig = Type.Object({
  /** Single sign-on is configured: show the SSO button, which navigates to `ssoLoginUrl`. */
  sso: Type.Boolean(),
  ssoLoginUrl: Type.String(),
  csrfCookie: Type.String(),
  csrfHeader: Type.String(),
  requestTimeHeader: Type.String(),
});
export type AuthConfig = Static<typeof AuthConfig>;

export const SsoRedirectQuery = Type.Object({
  /** Where to land after login: a path on this site (anything else is replaced by "/"). */
  redirect: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type SsoRedirectQuery = Static<typeof SsoRedirectQuery>;

export const OidcCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 512 })),
  error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  iss: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type OidcCallbackQuery = Static<typeof OidcCallbackQuery>;

/** The portal's public signing keys (RFC 7517), not wrapped in the envelope: efile reads it with jose. */
export const PublicJwks = Type.Object({
  keys: Type.Array(
    Type.Object({
      kty: Type.String(),
      crv: Type.String(),
      x: Type.String(),
      kid: Type.String(),
      alg: Type.String(),
      use: Type.String(),
    }),
  ),
});
export type PublicJwks = Static<typeof PublicJwks>;

/* Response envelopes of the identity calls (every route declares its response schema). */
export const EmptyResponse = Envelope(Type.Null());
export const CurrentUserResponse = Envelope(CurrentUser);
export const TokenRefreshResponse = Envelope(TokenRefresh);
export const AuthConfigResponse = Envelope(AuthConfig);
export const ClusterListResponse = Envelope(Type.Array(Cluster));
export const ClusterUsersDetailResponse = Envelope(Type.Array(ClusterUserDetail));
export const ClusterUserBaseInfoResponse = Envelope(Type.Array(ClusterUserBaseInfo));
export const CanApplyResponse = Envelope(Type.Array(ApplicableCluster));
export const AccessPathResponse = Envelope(AccessPathMap);
export const EfileInfoResponse = Envelope(EfileInfo);
export const PublicEfileUrlsResponse = Envelope(PublicEfileUrls);
export const UserAccountsResponse = Envelope(Type.Array(UserAccount));
export const AccountAlertsResponse = Envelope(
  Type.Object({
    alerts: Type.Array(AccountAlert),
    /** The thresholds used (spec §9), so the web can word the alert. */
    balanceThreshold: Type.Number(),
    expiryReminderDays: Type.Integer(),
  }),
);

/* ------------------------------------------------------------------------------------------------------------------
 * Administration calls under /api/admin/ (manager only); the admin CLI offers the same operations.
 * ---------------------------------------------------------------------------------------------------------------- */

export const AdminUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  fullName: Type.String(),
  email: Type.String(),
  role: UserRole,
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  /** Linked to a single sign-on identity. */
  sso: Type.Boolean(),
  createdAt: Type.Integer(),
});
export type AdminUser = Static<typeof AdminUser>;

export const AdminUserBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
  fullName: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
  role: Type.Optional(UserRole),
});
export type AdminUserBody = Static<typeof AdminUserBody>;

export const AdminUserUpdateBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
  fullName: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
  role: Type.Optional(UserRole),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
});
export type AdminUserUpdateBody = Static<typeof AdminUserUpdateBody>;

export const AdminClusterBody = Type.Object({
  clusterId: Type.String({ minLength: 1, maxLength: 32 }),
  centerName: Type.String({ minLength: 1, maxLength: 200 }),
  centerNameEn: Type.Optional(Type.String({ maxLength: 200 })),
  homeRoot: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type AdminClusterBody = Static<typeof AdminClusterBody>;

export const AdminServiceListBody = Type.Object({
  clusterId: Type.String({ minLength: 1, maxLength: 32 }),
  service: Type.Union(SERVICE_LIST_PARAMS.map((p) => Type.Literal(p))),
  entries: Type.Array(ServiceEntry, { maxItems: 100 }),
});
export type AdminServiceListBody = Static<typeof AdminServiceListBody>;

export const AdminAccountBody = Type.Object({
  accountId: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(AccountStatus),
  balance: Type.Optional(Type.Number()),
  endUseTime: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});
export type AdminAccountBody = Static<typeof AdminAccountBody>;

export const AdminMemberBody = Type.Object({
  accountId: Type.String({ minLength: 1, maxLength: 64 }),
  username: Type.String({ minLength: 1, maxLength: 64 }),
  memberType: Type.Optional(MemberType),
  groupId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
});
export type AdminMemberBody = Static<typeof AdminMemberBody>;

export const AdminComputeUserBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  clusterId: Type.String({ minLength: 1, maxLength: 32 }),
  clusterUserName: Type.Optional(Type.String({ maxLength: 32 })),
  homePath: Type.Optional(Type.String({ maxLength: 1024 })),
  accountId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
});
export type AdminComputeUserBody = Static<typeof AdminComputeUserBody>;

export const AdminUsersResponse = Envelope(Type.Array(AdminUser));
export const AdminAccountsResponse = Envelope(Type.Array(AccountDetail));
