/** 1 MiB: the unit in which downloads and zips read files and write to the socket. */
export const BLOCK = 1024 * 1024;

/**
 * Free 1 MiB buffers shared by every download and zip of the process. A buffer goes back once the socket's write
 * callback says the kernel has its bytes; at most POOL_MAX are kept, more are allocated and left to the GC.
 * Reusing them keeps a busy server's memory flat: a fresh 1 MiB block per read is garbage that V8 only collects
 * lazily (the zip of 10,000 files grew the RSS by ~60 MB that way) and, on this VM, made downloads bimodal.
 */
const pool: Buffer[] = [];
const POOL_MAX = 16;

export const takeBlock = (): Buffer => pool.pop() ?? Buffer.allocUnsafeSlow(BLOCK);

export const giveBack = (b: Buffer): void => {
  if (pool.length < POOL_MAX) pool.push(b);
};
