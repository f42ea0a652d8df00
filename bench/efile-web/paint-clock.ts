/**
 * A clock inside the page for "the user acts → the rows are painted". Timed from Node (Date.now() around
 * playwright's `click` and a `locator.waitFor`), paging read ~35–80 ms more than the page took: the click's
 * actionability checks (scrolled into view, stable over two animation frames, hit test) run before the click is
 * dispatched, `click` then waits after it, and the wait polls the page and answers over the DevTools connection.
 * Here the start is the input event's own time stamp (pointerdown or keydown, as the browser received it, or the
 * navigation start for an open) and the end the frame that paints the awaited row: the row is looked for at the
 * start of each frame, and a message posted then is handled once that frame's rendering is done. Never earlier
 * than what the user sees; at most a frame later.
 */

/** The first row's name of the folder the bench opens (its `path` ends in /big). */
export const FIRST_ROW = 'f000000.dat';

export interface PaintTiming {
  /** The input event's time stamp, or 0 (navigation start) for an open; page clock, ms. */
  start: number;
  painted: number;
}

/** What the clock uses of the page; the bench is typed without the DOM library. */
interface PageWindow {
  document: { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> };
  location: { search: string };
  performance: { now(): number };
  requestAnimationFrame(cb: () => void): number;
  addEventListener(type: string, cb: (e: { timeStamp: number }) => void, capture: boolean): void;
  MessageChannel: new () => {
    port1: { onmessage: (() => void) | null };
    port2: { postMessage(m: unknown): void };
  };
  __paintClock?: { arm(want: string, fromInput: boolean): void; done: Promise<PaintTiming> };
}

/**
 * Installed in every document (`addInitScript`): on the bench's folder it times the first row from navigation
 * start; `arm` times the next one from the next input event. Only methods and inline arrows inside: the page gets
 * this function's text, and tsx wraps named functions in a helper the page does not have.
 */
export function installPaintClock(first: string): void {
  const w = globalThis as unknown as PageWindow;
  const clock = {
    want: '',
    start: -1,
    fromInput: false,
    resolve: null as ((t: PaintTiming) => void) | null,
    done: Promise.resolve({ start: 0, painted: 0 }),
    arm(want: string, fromInput: boolean) {
      clock.want = want;
      clock.fromInput = fromInput;
      clock.start = fromInput ? -1 : 0;
      clock.done = new Promise<PaintTiming>((resolve) => {
        clock.resolve = resolve;
      });
      w.requestAnimationFrame(() => clock.frame());
    },
    input(e: { timeStamp: number }) {
      if (clock.fromInput && clock.start < 0) clock.start = e.timeStamp;
    },
    frame() {
      const names = w.document.querySelectorAll('[data-testid=efile-name]');
      for (let i = 0; i < names.length; i++) {
        if (names[i]!.textContent !== clock.want || clock.start < 0) continue;
        // Found at the start of a frame: this frame paints it, and the message is handled after it has.
        const ch = new w.MessageChannel();
        ch.port1.onmessage = () => clock.resolve?.({ start: clock.start, painted: w.performance.now() });
        ch.port2.postMessage(null);
        return;
      }
      w.requestAnimationFrame(() => clock.frame());
    },
  };
  w.addEventListener('pointerdown', (e) => clock.input(e), true);
  w.addEventListener('keydown', (e) => clock.input(e), true);
  w.__paintClock = clock;
  if (/[?&]path=[^&]*%2Fbig(&|$)/.test(w.location.search)) clock.arm(first, false);
}

/** Arms the clock for `want`: the next pointerdown or keydown starts it. */
export const armPaintClock = (want: string) =>
  (globalThis as unknown as PageWindow).__paintClock!.arm(want, true);

/** The armed measure, once the awaited row has been painted. */
export const paintTiming = () => (globalThis as unknown as PageWindow).__paintClock!.done;
