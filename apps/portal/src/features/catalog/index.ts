import { CommonCodes } from '@hpc/contracts';
import { AppError, callerKey, credentialId, installFormParser, type AppServer } from '@hpc/server-kit';
import type { FastifyRequest } from 'fastify';
import type { PortalDeps } from '../../deps';
import { portalEfileClient } from '../../efile-client';
import { CatalogIndexStore } from './catalog-index-store';
import { CatalogStorage, catalogStorageDir } from './catalog-storage';
import { CatalogRepository } from './catalog.repository';
import { appRoutes, catalogFileRoutes, imageRoutes, modelRoutes } from './catalog.routes';
import { CatalogService } from './catalog.service';
import { routeGroup } from '../identity';
import { createModelCopyService } from './model-copy.service';
import { createModelFilesService } from './model-files';
import { modelCopyRoutes, modelFileRoutes } from './model-files.routes';
import { PortalText } from '../../messages';

export { seedCatalog } from './catalog.seed';
export { seedSyntheticCatalog } from './catalog-synthetic.seed';

const DAY_MS = 24 * 3600 * 1000;

/** Builds the catalogue service from the portal's dependencies (one index store per catalogue). */
export function createCatalogService(deps: Pick<PortalDeps, 'db' | 'config'>): CatalogService {
  const repo = new CatalogRepository(deps.db);
  return new CatalogService(
    repo,
    {
      image: new CatalogIndexStore(repo, 'image'),
      model: new CatalogIndexStore(repo, 'model'),
      app: new CatalogIndexStore(repo, 'app'),
    },
    new CatalogStorage(catalogStorageDir(deps)),
  );
}

/**
 * The server's validator coerces a single value into an array (so that repeated query parameters work), which
 * would let a JSON body say `labels: "x"`. In a body that is a client bug: refuse it before validation runs.
 */
async function rejectScalarArrays(req: FastifyRequest): Promise<void> {
  const schema = req.routeOptions.schema?.body as
    { properties?: Record<string, { type?: string }> } | undefined;
  const body = req.body as Record<string, unknown> | null | undefined;
  if (!schema?.properties || !body || typeof body !== 'object') return;
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (prop.type === 'array' && body[key] !== undefined && !Array.isArray(body[key])) {
      throw new AppError(CommonCodes.invalidInput, PortalText.bodyNotArray(key));
    }
  }
}

/** Image centre, model zoo, application centre and the catalogue files (spec §7). */
export async function catalogFeature(app: AppServer, deps: PortalDeps): Promise<void> {
  const service = createCatalogService(deps);
  const files = createModelFilesService(
    new CatalogRepository(deps.db),
    new CatalogStorage(catalogStorageDir(deps)),
  );
  const { services: identity, http } = app.identity;
  const copies = createModelCopyService({
    files,
    kv: deps.kv,
    now: () => deps.now(),
    efileInfo: (userId, clusterId) => identity.clusters.efileInfo(userId, clusterId),
    async clusterToken(userId, clusterId, sid) {
      const entry = (await identity.tokens.tokenList(userId, sid)).find((t) => t.clusterId === clusterId);
      if (!entry) throw new AppError(CommonCodes.clusterUserMissing);
      return entry.token;
    },
    revokeCommand: (userId, secret) => identity.credentials.revoke(userId, credentialId(secret)),
    // The root server: relative efile URLs are the instances the all-in-one start mounts on it.
    efile: (base, clusterId, token, timeoutMs, lang) =>
      portalEfileClient(app, base, clusterId, token, timeoutMs, lang),
    warn: (err, msg) => app.log.warn({ err }, msg),
  });
  await app.register(async (scope) => {
    // The spec's clients post forms unless JSON is stated (e.g. the download counter): accept them here.
    installFormParser(scope);
    scope.addHook('preValidation', rejectScalarArrays);
    const s = scope as unknown as AppServer;
    imageRoutes(s, service);
    modelRoutes(s, service, {
      downloader: async (req) => {
        const live = await http.current(req);
        return live ? `u${live.user.id}` : `a${callerKey(req.ip)}`;
      },
      once: (key) => deps.kv.setIfAbsent(key, '1', DAY_MS),
    });
    appRoutes(s, service);
    catalogFileRoutes(s, service);
    modelFileRoutes(s, files);
    await s.register(routeGroup(http, 'user', (g) => modelCopyRoutes(g, copies, http)));
  });
}
