import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { CommonCodes, LINUX_TOKEN_HEADER, LinuxRoutes, preferredMessageLanguage } from '@hpc/contracts';
import { AppError, addRoute, ok } from '@hpc/server-kit';
import { EfileText } from '../../messages';
import type { EfileApp, EfileContext } from '../../http/context';
import type { DownloadService } from '../download';
import type { LinuxService } from './linux.service';

export function linuxRoutes(
  app: EfileApp,
  { auth, deps }: EfileContext,
  linux: LinuxService,
  downloads: DownloadService,
): void {
  // The public base of this instance as the user's shell must reach it (configurable behind proxies).
  const baseOf = (req: FastifyRequest) => {
    if (deps.config.EFILE_PUBLIC_URL) return deps.config.EFILE_PUBLIC_URL.replace(/\/$/, '');
    const prefix =
      req.routeOptions.url?.replace(/\/(linuxUpload|fastrans\/linuxDownload|getUserToken)\.action$/, '') ??
      '';
    return `${req.protocol}://${req.host}${prefix}`;
  };
  const langOf = (req: FastifyRequest) => preferredMessageLanguage(req.headers['accept-language']);
  addRoute(app, LinuxRoutes.uploadCommands, async (req) =>
    ok(await linux.uploadCommands(auth.user(req), req.query.path, baseOf(req), langOf(req))),
  );
  addRoute(app, LinuxRoutes.downloadCommands, async (req) => {
    const paths = req.body.paths ?? (req.body.path ? [req.body.path] : []);
    return ok(await linux.downloadCommands(auth.user(req), paths, baseOf(req), langOf(req)));
  });
  addRoute(app, LinuxRoutes.userToken, async (req) =>
    ok(await linux.userToken(auth.user(req), req.body.path)),
  );

  const scoped = { efileAuth: 'none' as const };
  // The body is the file itself: never let a text/JSON parser take it, whatever type the client claims.
  const rawBody = async (req: FastifyRequest) => {
    req.headers['content-type'] = 'application/octet-stream';
  };
  // The generated commands' token: in a header, never on the command line (LINUX_TOKEN_HEADER).
  const headerToken = (req: FastifyRequest): string => {
    const t = req.headers[LINUX_TOKEN_HEADER];
    if (typeof t !== 'string' || !t)
      throw new AppError(CommonCodes.tokenWithoutUser, EfileText.commandInvalid);
    return t;
  };
  addRoute(app, LinuxRoutes.putFile, { config: scoped, onRequest: rawBody }, async (req) =>
    ok(
      await linux.putFile(
        headerToken(req),
        req.params.name,
        req.raw as Readable,
        req.query.overwrite ?? false,
      ),
    ),
  );
  addRoute(app, LinuxRoutes.putTar, { config: scoped, onRequest: rawBody }, async (req) =>
    ok(await linux.putTar(headerToken(req), req.raw as Readable, req.query.overwrite ?? false)),
  );
  addRoute(app, LinuxRoutes.getFiles, { config: scoped }, async (req, reply) => {
    const { items, scope } = await linux.getPaths(headerToken(req));
    // Linux downloads are the way around the browser's folder limit: no file-count limit here.
    return downloads.sendSelection(req, reply, scope, items, { fileLimit: Number.MAX_SAFE_INTEGER });
  });
}
