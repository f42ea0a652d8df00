/** What a submission said about its output files (KV), kept for the detail once the queue forgets the job. */
export const submittedKey = (jobId: string) => `submitted:${jobId}`;
