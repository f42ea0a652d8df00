/**
 * The refusals of folders over 1,000 files (spec §5) offer fast transfer: the browser upload and the zip download
 * warn, then call {@link offerFastTransfer}; the fast-transfer bar of the file manager answers with its offer.
 * Returns false when no bar is on screen.
 */
export type FastransOffer = { kind: 'upload'; name: string } | { kind: 'download'; paths: string[] };

let handler: ((o: FastransOffer) => void) | null = null;

export function offerFastTransfer(o: FastransOffer): boolean {
  if (!handler) return false;
  handler(o);
  return true;
}

export function setFastransOfferHandler(h: ((o: FastransOffer) => void) | null): void {
  handler = h;
}
