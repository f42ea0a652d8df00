import fs from 'node:fs/promises';
import { ApiClient, chunkUploadApi } from '@hpc/api-client';
import { chunkFields, chunkRange, totalChunks } from '@hpc/contracts';

/**
 * The chunk protocol spoken from Node the way the page speaks it: 1 MiB chunks, 3 at a time, a test GET before
 * each POST (simple-uploader.js defaults, spec §9), through the same chunk calls as the web's transport. The baseline the browser upload is compared with.
 */
export async function nodeUpload(o: {
  url: string;
  token: string;
  file: string;
  dir: string;
  name: string;
  chunkSize?: number;
}) {
  const chunkSize = o.chunkSize ?? 1024 * 1024;
  const data = await fs.readFile(o.file);
  const file = { size: data.length, chunkSize, relativePath: o.name, path: o.dir };
  const total = totalChunks(data.length, chunkSize);
  const chunks = chunkUploadApi(
    new ApiClient({ baseUrl: o.url, timeoutMs: 0, headers: () => ({ token: o.token }) }),
  );
  let next = 1;
  const t0 = performance.now();
  const worker = async () => {
    while (next <= total) {
      const n = next++;
      const fields = chunkFields(file, n);
      if (await chunks.test(fields)) continue;
      const { start, end } = chunkRange(n, data.length, chunkSize);
      await chunks.send(fields, new Blob([data.subarray(start, end)]));
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  const secs = (performance.now() - t0) / 1000;
  return { secs, mbps: data.length / 1024 / 1024 / secs };
}
