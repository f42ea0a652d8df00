import { ApiError, type FastransClientWho } from '@hpc/api-client';
import { backoffMs } from '@hpc/contracts';
import type { Answer, Request } from './protocol';
import { webServer } from './session';

/** The portal's origin the page belongs to; the relay hands it as the origin of the actions it carries. */
export interface RelayOptions {
  handle(m: Request, origin: string): Promise<Answer>;
  /** This client's id and machine name: the portal hands it only the actions the page addressed to it. */
  who?: FastransClientWho;
  log(msg: string): void;
  /**
   * The portal refused the poll itself (its web login ended: the day is over, or the portal lost its sessions):
   * polling again with the same token cannot succeed, so the loop ends here and the session logs in anew (and,
   * should that fail, polls again after a pause).
   */
  onRefused(webToken: string): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RELAY_BACKOFF = { baseMs: 1_000, maxMs: 8_000 };

/**
 * The second path between page and client (docs/FASTRANS.md "The relay"): browsers that block a public page's
 * connection to 127.0.0.1 (Safari; Chrome without the Local Network Access permission) cannot reach the local
 * server, so the client keeps an outbound long poll to the portal it is logged in to and runs the page's actions
 * it receives there, exactly as if they had come over the local WebSocket from the portal's origin.
 *
 * Only a logged-in client polls: the portal hands it the requests of the portal user its web token belongs to,
 * addressed to this client (`who`): the same user's client on another machine gets its own.
 */
export class Relay {
  private run = 0;

  constructor(private readonly opts: RelayOptions) {}

  /** (Re)starts polling `portal` with the web server's token; a previous loop ends. */
  start(portal: string, webToken: string) {
    const run = ++this.run;
    void this.loop(run, portal, webToken);
  }

  stop() {
    this.run++;
  }

  private async loop(run: number, portal: string, token: string) {
    const api = webServer(portal, this.opts.who);
    let after = 0;
    let failures = 0;
    while (run === this.run) {
      try {
        const { seq, requests } = await api.relayPoll<Request>(token, after, 60_000);
        // Each request on its own: a slow one (a login) does not hold up the next poll or a pause click. Run even
        // when a new login started another loop while this poll waited (up to 20 s): the portal gave these
        // requests to this poll alone, so dropping them left the page without an answer (its detection then took
        // the client for stopped); this loop's token still answers them.
        for (const { n, m } of requests) {
          void this.opts
            .handle(m, portal)
            .then((answer) => api.relayAnswer(token, n, answer, 30_000))
            .catch((e: Error) => this.opts.log(`relay answer failed: ${e.message}`));
        }
        if (run !== this.run) return;
        after = seq;
        failures = 0;
      } catch (e) {
        if (run !== this.run) return;
        if (e instanceof ApiError && e.kind === 'api') {
          this.opts.log(`relay stopped: the portal refused its login (${e.code})`);
          this.run++;
          this.opts.onRefused(token);
          return;
        }
        // The token is never in a log: only the message of the failure.
        if (failures++ === 0) this.opts.log(`relay poll failed: ${(e as Error).message.replace(token, '…')}`);
        // Short backoff (1, 2, 4, then 8 s): the page waits on this path while the portal restarts.
        await sleep(backoffMs(failures, RELAY_BACKOFF));
      }
    }
  }
}
