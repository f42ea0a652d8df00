// Moved to shared/utils/format-size.ts (issue 23 §4: share and models used it from inside efile). Kept only for
// efile/fastrans, which engineer "fastrans" is moving to features/fastrans: it then imports the shared one, and
// this file goes.
export { formatSize, formatSizeExact, formatSpeed } from '../../../shared/utils/format-size';
