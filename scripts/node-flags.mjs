/**
 * The Node flags the servers run with (the all-in-one, efile; efile's unix-mode workers inherit them with
 * `process.execArgv`): one list for `npm start`, `start:cluster` and the benches; the systemd unit
 * deploy/systemd/hpc-efile@.service writes the same on its ExecStart line.
 *
 * `--initial-old-space-size=128`: V8 sizes the old generation's limit from what is live (efile: ~30 MB), and a
 * range upload's body arrives as 64 KiB buffers that the HTTP parser allocates for each read. Buffers that live
 * through two scavenges (queued for a write, hashed, awaited) are promoted, and the small limit was reached every
 * 30 MB: ~70 full collections for one 2 GiB upload, a quarter of efile's CPU. With a floor of 128 MB, V8 skips full
 * collections below it (one per 2 GiB). DECISIONS.md, "efile's old generation starts at 128 MB".
 */
export const SERVER_NODE_FLAGS = ['--enable-source-maps', '--initial-old-space-size=128'];
