import fs from 'node:fs/promises';

/**
 * The chunk protocol spoken from Node the way the page speaks it: 1 MiB chunks, 3 at a time, a test GET before
 * each POST (simple-uploader.js defaults, spec §9). The baseline the browser upload is compared with.
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
  const total = Math.max(1, Math.floor(data.length / chunkSize));
  const identifier = `${data.length}-${o.name.replace(/[^0-9a-zA-Z_-]/g, '')}`;
  const params = (n: number) => {
    const start = (n - 1) * chunkSize;
    const end = n === total ? data.length : start + chunkSize;
    return {
      start,
      end,
      q: {
        chunkNumber: String(n),
        chunkSize: String(chunkSize),
        currentChunkSize: String(end - start),
        totalSize: String(data.length),
        identifier,
        filename: o.name,
        relativePath: o.name,
        totalChunks: String(total),
        path: o.dir,
      },
    };
  };
  let next = 1;
  const t0 = performance.now();
  const worker = async () => {
    while (next <= total) {
      const n = next++;
      const { start, end, q } = params(n);
      const test = await fetch(`${o.url}/chunkUpload.action?${new URLSearchParams(q).toString()}`, {
        headers: { token: o.token },
      });
      await test.arrayBuffer();
      if (test.status === 200) continue;
      const form = new FormData();
      for (const [k, v] of Object.entries(q)) form.append(k, v);
      form.append('file', new Blob([data.subarray(start, end)]), 'blob');
      const res = await fetch(`${o.url}/chunkUpload.action`, {
        method: 'POST',
        headers: { token: o.token },
        body: form,
      });
      if (!res.ok) throw new Error(`chunk ${n}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  const secs = (performance.now() - t0) / 1000;
  return { secs, mbps: data.length / 1024 / 1024 / secs };
}
