import { createRequire } from 'node:module';
import zlib from 'node:zlib';

type Crc32Module = { unsigned: (buf: unknown, previous?: unknown) => number };

const nativeCrc32 = (zlib as unknown as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/**
 * yazl computes the CRC-32 of every byte it stores with `buffer-crc32`, a table loop in JavaScript: a profile of
 * a 10,000-file zip spent 39 % of the server's time in it. Node ≥ 20.15 has zlib's CRC-32 built in
 * (`zlib.crc32(data, value)`, same polynomial, unsigned result, several GB/s). yazl calls the function as
 * `crc32.unsigned(chunk, previous)` on the module object it required, so replacing that one property on the
 * shared module (the copy yazl itself resolves) switches yazl to the native code without forking it. Anything
 * that is not a plain byte array with a numeric seed (strings, a Buffer seed) still goes to the original.
 * Idempotent; returns whether the native function is in place.
 */
export function useNativeCrc32ForYazl(): boolean {
  if (!nativeCrc32) return false;
  const fromYazl = createRequire(createRequire(import.meta.url).resolve('yazl'));
  const mod = fromYazl('buffer-crc32') as Crc32Module & { efileNative?: true };
  if (mod.efileNative) return true;
  const original = mod.unsigned.bind(mod);
  mod.unsigned = (buf: unknown, previous?: unknown) =>
    buf instanceof Uint8Array && (previous === undefined || typeof previous === 'number')
      ? nativeCrc32(buf, previous ?? 0)
      : original(buf, previous);
  mod.efileNative = true;
  return true;
}
