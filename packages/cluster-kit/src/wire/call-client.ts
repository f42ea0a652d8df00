import { CommonCodes } from '@hpc/contracts';
import { AppError, isAppError } from '@hpc/server-kit';
import { ClusterKitText } from '../messages';
import {
  callRoute,
  type AnyCall,
  type CallClient,
  type CallScope,
  type CallSpec,
  type CallTable,
  type CallTransport,
  type CustomClientContext,
  type RequestOptions,
} from './call-table';
import { fromWire, gone, isGone, jsonLines, readWhole, type WireError } from './wire-format';

/** The scope type of an interface's calls (their first argument); a method without arguments (`close`) is none. */
export type ScopeOf<Impl> = {
  [K in keyof Impl]: Impl[K] extends () => unknown
    ? never
    : Impl[K] extends (s: infer S, ...a: never[]) => unknown
      ? S
      : never;
}[keyof Impl];

export interface CallClientOptions<S> {
  /** The scope as sent to the worker (default: as given); e.g. only `{ cun, roots }` of a richer user object. */
  wireScope?: (scope: S) => unknown;
}

/** The end of a streamed answer: `done`, or the error that stopped it. */
interface EndLine {
  done?: boolean;
  error?: WireError;
}

/**
 * The most a plain call's answer may hold. Answers are pages, names and small records; the answer is parsed on the
 * service's one event loop, where a user's 200 MB answer (job templates, found from outside) held every other
 * user's requests for seconds. Larger data goes by the streamed kinds (download, lines).
 */
export const MAX_PLAIN_ANSWER = 32 * 1024 * 1024;

const answerTooLarge = () =>
  new AppError(CommonCodes.tooLarge, ClusterKitText.answerTooLarge(String(MAX_PLAIN_ANSWER >> 20)));

/**
 * The front end's typed proxy of a call table: each declared call becomes a method with the interface's signature,
 * sent to the worker of its scope's user (`scope.cun`) in the shape of its kind. A worker that dies during a call
 * fails it with `1001` (retry) and is forgotten, so the next call starts a new one; a plain call declared
 * `repeatable` is sent once more by itself.
 */
export function callClient<Impl, T extends CallTable<Impl>>(
  table: T,
  t: CallTransport,
  opts: CallClientOptions<ScopeOf<Impl>> = {},
): CallClient<Impl, T> {
  const wire = (opts.wireScope ?? ((s: CallScope) => s)) as (s: CallScope) => unknown;
  const userOf = (s: CallScope) => s.cun;

  /** One request whose answer is `{ result }`; a socket that fails while it is read means the worker is gone. */
  const json = async <R>(user: string, route: string, ro: RequestOptions): Promise<R> => {
    const { res, done } = await t.request(user, route, ro);
    try {
      const answer = await readWhole(res, MAX_PLAIN_ANSWER, answerTooLarge);
      return (JSON.parse(answer.toString('utf8')) as { result: R }).result;
    } catch (e) {
      if (isAppError(e)) throw e;
      t.forget(user);
      throw gone();
    } finally {
      done();
    }
  };

  const make = (name: string, spec: CallSpec): AnyCall => {
    const route = callRoute(name);
    switch (spec.kind) {
      case 'plain':
        return async (s: CallScope, ...args: unknown[]) => {
          if (spec.skipWithoutUser && !s.cun) return undefined;
          const ro = { json: { scope: wire(s), args } };
          try {
            return await json(userOf(s), route, ro);
          } catch (e) {
            if (!spec.repeatable || !isGone(e)) throw e;
            // Died before answering (killed, idle exit racing the call): once more, to a new worker.
            t.forget(userOf(s));
            return json(userOf(s), route, ro);
          }
        };
      case 'upload':
        return (s: CallScope, ...args: unknown[]) =>
          json(userOf(s), route, {
            stream: args[spec.body] as AsyncIterable<Buffer>,
            args: { scope: wire(s), args: args.filter((_, i) => i !== spec.body) },
          });
      case 'download':
        return async (s: CallScope, ...args: unknown[]) => {
          const { res, done } = await t.request(userOf(s), route, { json: { scope: wire(s), args } });
          try {
            // Bounded by the call itself (readFile's maxBytes, checked in the worker).
            return await readWhole(res, Number.POSITIVE_INFINITY);
          } catch (e) {
            if (isAppError(e)) throw e;
            t.forget(userOf(s));
            throw gone();
          } finally {
            done();
          }
        };
      case 'lines':
        return async function* (s: CallScope, ...args: unknown[]) {
          const { res, done } = await t.request(userOf(s), route, { json: { scope: wire(s), args } });
          try {
            let end: EndLine | null = null;
            for await (const line of jsonLines<{ e?: unknown } & EndLine>(res)) {
              if ('e' in line) yield line.e;
              else end = line;
            }
            if (end?.error) throw fromWire(end.error);
            if (!end?.done) throw gone();
          } catch (e) {
            if (isAppError(e)) throw e;
            throw gone();
          } finally {
            res.destroy();
            done();
          }
        };
      case 'progress':
        return async (s: CallScope, ...all: unknown[]) => {
          const args = all.slice(0, -2);
          const report = all[all.length - 2] as (p: unknown) => void;
          const signal = all[all.length - 1] as AbortSignal;
          const { res, done } = await t.request(userOf(s), route, { json: { scope: wire(s), args } });
          // The front end closing the request cancels the work in the worker.
          const stop = () => res.destroy();
          signal.addEventListener('abort', stop);
          try {
            let end: EndLine | null = null;
            for await (const line of jsonLines<{ progress?: unknown } & EndLine>(res)) {
              if ('progress' in line) report(line.progress);
              else end = line;
            }
            signal.throwIfAborted();
            if (end?.error) throw fromWire(end.error);
            if (!end?.done) throw gone();
          } catch (e) {
            signal.throwIfAborted();
            if (isAppError(e)) throw e;
            throw gone();
          } finally {
            signal.removeEventListener('abort', stop);
            done();
          }
        };
      case 'custom': {
        const ctx: CustomClientContext = {
          userOf,
          wireScope: wire,
          request: (s, sub, ro = {}) => t.request(userOf(s), callRoute(name, sub), ro),
          json: (s, sub, ro = {}) => json(userOf(s), callRoute(name, sub), ro),
          // Addressed to this call: the worker's dispatcher hands the job to this call's `serve`.
          handOff: async (s, out, job) =>
            t.handOff && s.cun ? t.handOff(userOf(s), out, { call: name, job }) : { handed: false },
        };
        return spec.client(ctx);
      }
    }
  };

  const client: Record<string, AnyCall> = {};
  for (const [name, spec] of Object.entries(table) as [string, CallSpec][]) client[name] = make(name, spec);
  return client as CallClient<Impl, T>;
}
