import {
  CopyMoveBody,
  OkResponse,
  OperationCancelBody,
  OperationProgressResponse,
  OperationQuery,
  OperationStartResponse,
} from '@hpc/contracts';
import { ok } from '@hpc/server-kit';
import type { EfileApp, EfileContext } from '../../http/context';
import type { OperationsService } from './operations.service';

export function operationsRoutes(app: EfileApp, { auth, deps }: EfileContext, ops: OperationsService): void {
  for (const kind of ['copy', 'move'] as const) {
    app.post(
      `/${kind}.action`,
      { schema: { body: CopyMoveBody, response: { 200: OperationStartResponse } } },
      async (req) => {
        const b = req.body;
        const operationId = await ops.start(auth.user(req), kind, b.paths, b.targetPath, b.cover ?? false);
        return ok({ operationId, clusterId: deps.config.EFILE_CLUSTER_ID });
      },
    );
  }
  app.get(
    '/operationProgress.action',
    { schema: { querystring: OperationQuery, response: { 200: OperationProgressResponse } } },
    async (req) => ok(await ops.progress(auth.user(req), req.query.operationId)),
  );
  app.post(
    '/operationCancel.action',
    { schema: { body: OperationCancelBody, response: { 200: OkResponse } } },
    async (req) => {
      await ops.cancel(auth.user(req), req.body.operationId);
      return ok(null);
    },
  );
}
