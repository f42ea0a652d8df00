// The Job feature's public face: its client for other features (the Dashboard's job widgets).
export { createJobsApi, type JobsApi } from './api/jobs.api';
export { useJobsClient, type JobServiceState } from './hooks/use-jobs-client';
export { NoScheduler } from './components/no-scheduler';
export { JobStateTag } from './components/job-state-tag';
export { QueueStatusLine } from './components/queue-status';
export { formatDuration, formatTime } from './lib/job-format';
export { JOB_SCRIPT_EXTENSIONS } from '@hpc/contracts';
