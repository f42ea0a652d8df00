/** What other features take of downloads (through this index only: eslint.config.js's layers). */
export type { DownloadService } from './download.service';
