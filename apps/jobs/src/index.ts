export { registerJobs, buildJobs, type RegisterOptions } from './app';
export { readJobsConfig, JobsEnv, type JobsConfig } from './config';
export { openJobsDeps, type JobsDeps, type JobsDepsOptions } from './deps';
