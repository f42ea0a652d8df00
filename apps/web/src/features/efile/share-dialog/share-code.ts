const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A fresh 6-character extraction code without look-alike characters (0/o, 1/l/i), editable by the user. */
export function generateShareCode(
  random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
): string {
  return [...random(6)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** The link as the recipient opens it: efile may answer a path (no public URL configured), made absolute here. */
export function absoluteLink(link: string, origin: string): string {
  return /^https?:\/\//.test(link) ? link : `${origin}${link.startsWith('/') ? '' : '/'}${link}`;
}
