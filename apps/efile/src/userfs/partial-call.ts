import { call, decodeArgsHeader, HandleStore, readJson, type CustomCall } from '@hpc/cluster-kit';
import type { FsScope, PartialHandle, UserFs } from './types';

type PartialRef = { scope: FsScope; id: string };

/**
 * An upload's partial file stays open in the worker between its chunks (by id, closed after two idle minutes): a
 * chunk is one request whose body is its bytes, not an open, a check and a close of the file each time.
 */
export const openPartialCall: CustomCall<UserFs['openPartial'], UserFs> = call.custom({
  client: (ctx) => async (s, host) => {
    const scope = ctx.wireScope(s);
    const id = await ctx.json<string>(s, 'open', { json: { scope, host } });
    return {
      write: (data, offset) => ctx.json<void>(s, 'write', { stream: data, args: { scope, id, offset } }),
      sync: () => ctx.json<void>(s, 'sync', { json: { scope, id } }),
      close: () =>
        ctx.json<void>(s, 'close', { json: { scope, id } }).then(
          () => undefined,
          () => undefined,
        ),
    };
  },
  server: (impl, ctx) => {
    const partials = new HandleStore<PartialHandle>();
    const ref = async (req: Parameters<typeof readJson>[0]) => {
      const a = await readJson<PartialRef>(req);
      ctx.scopeOf(a.scope);
      return a.id;
    };
    return {
      routes: {
        open: async (req, res) => {
          const a = await readJson<{ scope: FsScope; host: string }>(req);
          const h = await impl.openPartial(ctx.scopeOf(a.scope), a.host);
          ctx.json(res, 200, { result: partials.add(h) });
        },
        write: async (req, res) => {
          const a = decodeArgsHeader<PartialRef & { offset: number }>(req);
          ctx.scopeOf(a.scope);
          await partials.take(a.id).write(req as AsyncIterable<Buffer>, a.offset);
          ctx.json(res, 200, { result: null });
        },
        sync: async (req, res) => {
          await partials.take(await ref(req)).sync();
          ctx.json(res, 200, { result: null });
        },
        close: async (req, res) => {
          await partials.close(await ref(req));
          ctx.json(res, 200, { result: null });
        },
      },
    };
  },
});
