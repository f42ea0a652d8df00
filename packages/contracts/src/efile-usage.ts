import { Type, type Static } from 'typebox';
import { Envelope } from './envelope';

/** A recently modified file of the home, for the Dashboard's "recent files" (issue 22 §4). */
export const RecentFile = Type.Object({
  name: Type.String(),
  path: Type.String(),
  size: Type.Number(),
  mtime: Type.Number(),
});
export type RecentFile = Static<typeof RecentFile>;

/**
 * `GET /usage.action` of efile: the home's used space and its most recently modified files, counted as the user in
 * the background and cached (never on the page's request: a home of a million files takes minutes). `countedAt`
 * null: never counted yet, `counting` says a count runs now.
 */
export const HomeUsage = Type.Object({
  home: Type.String(),
  usedBytes: Type.Number(),
  files: Type.Integer(),
  /** The count stopped at its limit of entries: `usedBytes` is a lower bound. */
  partial: Type.Boolean(),
  /** The user's quota on that file system where it reports one (null: none reported). */
  quotaBytes: Type.Union([Type.Number(), Type.Null()]),
  fsTotalBytes: Type.Number(),
  fsFreeBytes: Type.Number(),
  countedAt: Type.Union([Type.Integer(), Type.Null()]),
  counting: Type.Boolean(),
  recent: Type.Array(RecentFile),
});
export type HomeUsage = Static<typeof HomeUsage>;
export const HomeUsageResponse = Envelope(HomeUsage);
