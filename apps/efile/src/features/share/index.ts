/** What other features take of shares (through this index only: eslint.config.js's layers). */
export type { ShareRepository } from './share.repository';
