import { parseEfileRequest, type EfileShellRequest } from '@hpc/contracts';

/** After a prompt is answered, requests of the same tab are dropped this long (a loop cannot re-prompt at once). */
export const REQUEST_GAP_MS = 1500;
/** A new prompt's buttons wait this long, so a click meant for something else cannot land on them. */
export const PROMPT_ARM_MS = 600;

/**
 * Which `efile` requests of one terminal become a prompt (issue 26 §2): one at a time, none for `REQUEST_GAP_MS`
 * after the last prompt was answered (the terminal pane also drops those of a replayed scroll-back: old requests,
 * answered or not, never ask again). Everything else is dropped, so a program printing the sequence in a loop gets one prompt, not a flood;
 * and nothing happens without the user's click on the prompt.
 */
export class EfileRequestGate {
  private pending = false;
  private quietUntil = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** The request of an OSC sequence's data to show, or null (junk, replayed, one is shown, too soon). */
  offer(data: string): EfileShellRequest | null {
    if (this.pending || this.now() < this.quietUntil) return null;
    const req = parseEfileRequest(data);
    if (req) this.pending = true;
    return req;
  }

  /** The prompt was answered (either way) or dropped with its terminal. */
  settle(): void {
    if (!this.pending) return;
    this.pending = false;
    this.quietUntil = this.now() + REQUEST_GAP_MS;
  }
}
