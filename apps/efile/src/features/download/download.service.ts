import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Limits, CommonCodes } from '@hpc/contracts';
import { AppError } from '@hpc/server-kit';
import type { EfileDeps } from '../../deps';
import type { EfileUser } from '../../http/auth';
import type { UserScope } from '@hpc/cluster-kit';
import { contentDisposition, sendFile, takeOverResponse } from '../../http/file-send';
import type { FsScope } from '../../userfs/types';
import { EfileText } from '../../messages';

const DOWN_KEY_TTL_MS = 5 * 60_000;

/**
 * A selected item: a path resolved by the user file system (`Info`, stat fields) or by the resolver (`Resolved`,
 * an fs.Stats), as share and Linux downloads still hand them over.
 */
export interface Selected {
  host: string;
  name: string;
  stat: { isFile: boolean | (() => boolean) } | null;
}
const isFile = (s: Selected) =>
  !!s.stat && (typeof s.stat.isFile === 'function' ? s.stat.isFile() : s.stat.isFile);

/** Unique top-level names in a multi-selection archive: `a.txt`, `a (1).txt`. */
function uniqueNames(items: Selected[]): { host: string; name: string }[] {
  const seen = new Set<string>();
  return items.map((r) => {
    let name = r.name;
    for (let i = 1; seen.has(name); i++) {
      const dot = r.name.lastIndexOf('.');
      name = dot > 0 ? `${r.name.slice(0, dot)} (${i})${r.name.slice(dot)}` : `${r.name} (${i})`;
    }
    seen.add(name);
    return { host: r.host, name };
  });
}

/** Single-file and zip downloads, download keys for long selections. Shared by share and Linux downloads. */
export function downloadService(deps: EfileDeps) {
  const { userfs, kv } = deps;

  /**
   * One file as itself, anything else as one zip named after the selection (or `opts.name`) with an exact
   * Content-Length; folders over `opts.fileLimit` files (default the browser's folder limit) are refused with
   * "1508" before any byte is sent. Nothing is written on the server, so an interrupted zip leaves nothing behind.
   * The bytes come from the user file system: in unix mode they stream from the user's worker.
   */
  async function sendSelection(
    req: FastifyRequest,
    reply: FastifyReply,
    scope: UserScope & { cun?: string },
    items: Selected[],
    opts: { name?: string; fileLimit?: number } = {},
  ) {
    const as: FsScope = { cun: scope.cun ?? '', roots: scope.roots };
    const only = items[0];
    if (items.length === 1 && only && isFile(only))
      return sendFile(req, reply, await userfs.openRead(as, only.host), only.name);
    const fileLimit = opts.fileLimit ?? deps.config.EFILE_FOLDER_FILE_LIMIT;
    const zip = await userfs.openZip(as, uniqueNames(items), fileLimit);
    reply.header('content-type', 'application/zip');
    reply.header('content-disposition', contentDisposition(zipNameFor(items, opts.name)));
    reply.header('content-length', String(zip.size));
    const res = takeOverResponse(reply);
    if (req.method === 'HEAD') {
      res.end();
      await zip.close();
    } else
      void zip
        .writeTo(res)
        .catch((err: unknown) => req.log.warn({ err }, 'zip stream failed'))
        .finally(() => zip.close());
    return reply;
  }

  async function resolveAll(user: FsScope, paths: string[]) {
    const out = [];
    for (const p of paths) out.push(await userfs.resolve(user, p));
    return out;
  }

  const zipNameFor = (items: Selected[], name?: string) => {
    if (name) return name.endsWith('.zip') ? name : `${name}.zip`;
    return items.length === 1 ? `${items[0]!.name}.zip` : 'download.zip';
  };

  return {
    sendSelection,
    async download(req: FastifyRequest, reply: FastifyReply, user: EfileUser, p: string) {
      const items = await resolveAll(user, [p]);
      return sendSelection(req, reply, user, items);
    },

    /** Counts the selection (refusing over the folder limit with "1508") and hands out a key for long ones. */
    async check(user: EfileUser, paths: string[], urlLimit: number = Limits.downloadPathLimit) {
      const items = await resolveAll(user, paths);
      const zip = await userfs.openZip(user, uniqueNames(items), deps.config.EFILE_FOLDER_FILE_LIMIT);
      await zip.close();
      const encoded = paths.map((p) => `paths=${encodeURIComponent(p)}`).join('&').length;
      let downKey: string | null = null;
      if (encoded > urlLimit) {
        downKey = crypto.randomBytes(18).toString('base64url');
        await kv.set(`downkey:${downKey}`, JSON.stringify({ sub: user.sub, paths }), DOWN_KEY_TTL_MS);
      }
      return { downKey, fileCount: zip.fileCount, totalSize: zip.totalSize };
    },

    async multi(
      req: FastifyRequest,
      reply: FastifyReply,
      user: EfileUser,
      q: { paths?: string[]; downKey?: string; name?: string },
    ) {
      let paths = q.paths ?? [];
      if (q.downKey) {
        const raw = await kv.get(`downkey:${q.downKey}`);
        const saved = raw ? (JSON.parse(raw) as { sub: string; paths: string[] }) : null;
        // Keys are short-lived and bound to the user who asked for them.
        if (!saved || saved.sub !== user.sub)
          throw new AppError(CommonCodes.verificationFailed, EfileText.downloadKeyInvalid);
        paths = saved.paths;
      }
      if (paths.length === 0)
        throw new AppError(CommonCodes.incompleteParams, EfileText.chooseFilesToDownload);
      const items = await resolveAll(user, paths);
      return sendSelection(req, reply, user, items, { name: q.name });
    },
  };
}
export type DownloadService = ReturnType<typeof downloadService>;
