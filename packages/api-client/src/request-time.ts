import { REQUEST_TIME_HEADER, REQUEST_TIME_PHRASE } from '@hpc/contracts';

/**
 * The request-time header of spec §7 ("a token header built from a fixed phrase and the current time, encrypted
 * symmetrically"): base64url(iv ‖ AES-256-GCM(key = SHA-256(phrase), `${phrase}|${Date.now()}`)). The server
 * (server-kit auth/request-time.ts) refuses it when the time is off by more than Limits.requestTimeSkewMs. It is a
 * clock check, not a credential: the phrase ships with the web bundle. WebCrypto only, so it runs in browsers and
 * in Node ≥ 20 alike.
 */
const IV_BYTES = 12;
// The key type without naming it: CryptoKey is a DOM global that Node's types place elsewhere.
type AesKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const keys = new Map<string, Promise<AesKey>>();

function keyFor(phrase: string): Promise<AesKey> {
  let key = keys.get(phrase);
  if (!key) {
    key = crypto.subtle
      .digest('SHA-256', new TextEncoder().encode(phrase))
      .then((raw) => crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']));
    keys.set(phrase, key);
  }
  return key;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The header value for the time `now` (ms since the epoch). */
export async function encodeRequestTime(now = Date.now(), phrase = REQUEST_TIME_PHRASE): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    await keyFor(phrase),
    new TextEncoder().encode(`${phrase}|${now}`),
  );
  const out = new Uint8Array(IV_BYTES + sealed.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(sealed), IV_BYTES);
  return base64url(out);
}

/** `{ [REQUEST_TIME_HEADER]: value }`, ready for ApiClientOptions.headers. */
export async function requestTimeHeaders(now = Date.now()): Promise<Record<string, string>> {
  return { [REQUEST_TIME_HEADER]: await encodeRequestTime(now) };
}
