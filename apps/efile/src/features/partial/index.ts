/** The partial-file core of efile (issue 24 §2): what the chunk upload and fast transfer share. See partial.core.ts. */
export { partialCore, type PartialCore, type SessionRef } from './partial.core';
export { partialName, sessionId } from './partial-name';
export { finalizeLockKey } from './finalize-lock';
export type { OpenPartial, OpenPartials } from './open-partials';
export type { PartialKind, PartialRow } from './partial.repository';
