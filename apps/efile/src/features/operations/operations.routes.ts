import { OperationRoutes } from '@hpc/contracts';
import { addRoute, ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { OperationsService } from './operations.service';

export function operationsRoutes(app: EfileApp, { auth, deps }: EfileContext, ops: OperationsService): void {
  for (const kind of ['copy', 'move'] as const) {
    addRoute(app, OperationRoutes[kind], async (req) => {
      const b = req.body;
      const operationId = await ops.start(auth.user(req), kind, b.paths, b.targetPath, b.cover ?? false);
      return ok({ operationId, clusterId: deps.config.EFILE_CLUSTER_ID });
    });
  }
  addRoute(app, OperationRoutes.progress, async (req) =>
    ok(await ops.progress(auth.user(req), req.query.operationId)),
  );
  addRoute(app, OperationRoutes.cancel, async (req) => {
    await ops.cancel(auth.user(req), req.body.operationId);
    return ok(null);
  });
}
