import { runAdmin } from './run';

/** The operators' command-line tool: `npm run admin -- <command> …` (docs/OPERATIONS.md; bundled to dist/admin.js). */
process.exitCode = await runAdmin(process.argv.slice(2));
