import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  LinuxCommandResponse,
  LinuxDownloadBody,
  LinuxPutQuery,
  LinuxPutResponse,
  LinuxUploadQuery,
  PathQuery,
  UserTokenResponse,
} from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { DownloadService } from '../download/download.service';
import type { LinuxService } from './linux.service';

const TokenParams = Type.Object({ token: Type.String({ minLength: 10, maxLength: 100 }) });
const PutParams = Type.Object({
  token: Type.String({ minLength: 10, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 1024 }),
});

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
  app.get(
    '/linuxUpload.action',
    { schema: { querystring: LinuxUploadQuery, response: { 200: LinuxCommandResponse } } },
    async (req) => ok(await linux.uploadCommands(auth.user(req), req.query.path, baseOf(req))),
  );
  app.post(
    '/fastrans/linuxDownload.action',
    { schema: { body: LinuxDownloadBody, response: { 200: LinuxCommandResponse } } },
    async (req) => {
      const paths = req.body.paths ?? (req.body.path ? [req.body.path] : []);
      return ok(await linux.downloadCommands(auth.user(req), paths, baseOf(req)));
    },
  );
  app.post(
    '/getUserToken.action',
    { schema: { body: PathQuery, response: { 200: UserTokenResponse } } },
    async (req) => ok(await linux.userToken(auth.user(req), req.body.path)),
  );

  const scoped = { efileAuth: 'none' as const };
  // The body is the file itself: never let a text/JSON parser take it, whatever type the client claims.
  const rawBody = async (req: FastifyRequest) => {
    req.headers['content-type'] = 'application/octet-stream';
  };
  app.put(
    '/linux/put/:token/:name',
    {
      config: scoped,
      onRequest: rawBody,
      schema: { params: PutParams, querystring: LinuxPutQuery, response: { 200: LinuxPutResponse } },
    },
    async (req) =>
      ok(
        await linux.putFile(
          req.params.token,
          req.params.name,
          req.raw as Readable,
          req.query.overwrite ?? false,
        ),
      ),
  );
  app.put(
    '/linux/tar/:token',
    {
      config: scoped,
      onRequest: rawBody,
      schema: { params: TokenParams, querystring: LinuxPutQuery, response: { 200: LinuxPutResponse } },
    },
    async (req) =>
      ok(await linux.putTar(req.params.token, req.raw as Readable, req.query.overwrite ?? false)),
  );
  app.get('/linux/get/:token', { config: scoped, schema: { params: TokenParams } }, async (req, reply) => {
    const { items, scope } = await linux.getPaths(req.params.token);
    // Linux downloads are the way around the browser's folder limit: no file-count limit here.
    return downloads.sendSelection(req, reply, scope, items, { fileLimit: Number.MAX_SAFE_INTEGER });
  });
}
