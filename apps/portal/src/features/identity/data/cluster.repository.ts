import type { Insertable, Kysely, Selectable } from 'kysely';
import type { PortalDatabase } from '../../../db/database';
import type { ClusterTable, ComputeUserTable, StoragePathTable } from '../../../db/tables/identity.tables';

export type ClusterRow = Selectable<ClusterTable>;

/** Clusters, their params, the compute users on them and the shared storage paths granted there. */
export function createClusterRepository(db: Kysely<PortalDatabase>) {
  return {
    async insert(row: Insertable<ClusterTable>): Promise<void> {
      await db.insertInto('cluster').values(row).execute();
    },

    async updateNames(
      clusterId: string,
      names: { center_name?: string; center_name_en?: string },
    ): Promise<void> {
      await db.updateTable('cluster').set(names).where('cluster_id', '=', clusterId).execute();
    },

    find: (clusterId: string) =>
      db.selectFrom('cluster').selectAll().where('cluster_id', '=', clusterId).executeTakeFirst(),

    list: () => db.selectFrom('cluster').selectAll().execute(),

    async setParam(clusterId: string, name: string, value: string): Promise<void> {
      await db
        .insertInto('cluster_param')
        .values({ cluster_id: clusterId, name, value })
        .onConflict((oc) => oc.columns(['cluster_id', 'name']).doUpdateSet({ value }))
        .execute();
    },

    async deleteParam(clusterId: string, name: string): Promise<void> {
      await db
        .deleteFrom('cluster_param')
        .where('cluster_id', '=', clusterId)
        .where('name', '=', name)
        .execute();
    },

    /** Params of the given clusters (all clusters when `clusterIds` is undefined). */
    params: (clusterIds?: readonly string[]) =>
      clusterIds && clusterIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('cluster_param')
            .selectAll()
            .$if(clusterIds !== undefined, (q) => q.where('cluster_id', 'in', clusterIds!))
            .execute(),

    /** The user's compute users with their cluster and, when charged to an account, their membership there. */
    computeUsersOf: (userId: number) =>
      db
        .selectFrom('compute_user as cu')
        .innerJoin('cluster as c', 'c.cluster_id', 'cu.cluster_id')
        .leftJoin('account_member as m', (j) =>
          j.onRef('m.account_id', '=', 'cu.account_id').onRef('m.user_id', '=', 'cu.user_id'),
        )
        .select([
          'cu.cluster_id',
          'cu.cluster_user_name',
          'cu.home_path',
          'cu.account_id',
          'c.center_name',
          'c.center_name_en',
          'm.member_type',
          'm.group_id',
        ])
        .where('cu.user_id', '=', userId)
        .execute(),

    findComputeUserByName: (clusterId: string, clusterUserName: string) =>
      db
        .selectFrom('compute_user')
        .selectAll()
        .where('cluster_id', '=', clusterId)
        .where('cluster_user_name', '=', clusterUserName)
        .executeTakeFirst(),

    async upsertComputeUser(row: Insertable<ComputeUserTable>): Promise<void> {
      const { cluster_user_name, home_path, account_id } = row;
      await db
        .insertInto('compute_user')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['user_id', 'cluster_id']).doUpdateSet({ cluster_user_name, home_path, account_id }),
        )
        .execute();
    },

    async deleteComputeUser(userId: number, clusterId: string): Promise<number> {
      const r = await db
        .deleteFrom('compute_user')
        .where('user_id', '=', userId)
        .where('cluster_id', '=', clusterId)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** Shared paths granted to the user directly or to a user group they belong to through an account. */
    storagePathsOf: (userId: number) =>
      db
        .selectFrom('storage_path')
        .select(['cluster_id', 'path'])
        .distinct()
        .where((eb) =>
          eb.or([
            eb('user_id', '=', userId),
            eb(
              'group_id',
              'in',
              eb
                .selectFrom('account_member')
                .select('group_id')
                .where('user_id', '=', userId)
                .where('group_id', 'is not', null),
            ),
          ]),
        )
        .orderBy('cluster_id')
        .orderBy('path')
        .execute(),

    findStoragePath: (row: Pick<StoragePathTable, 'cluster_id' | 'path' | 'user_id' | 'group_id'>) =>
      db
        .selectFrom('storage_path')
        .select('id')
        .where('cluster_id', '=', row.cluster_id)
        .where('path', '=', row.path)
        .where('user_id', row.user_id === null ? 'is' : '=', row.user_id)
        .where('group_id', row.group_id === null ? 'is' : '=', row.group_id)
        .executeTakeFirst(),

    async insertStoragePath(row: Insertable<StoragePathTable>): Promise<void> {
      await db.insertInto('storage_path').values(row).execute();
    },

    async deleteStoragePath(id: number): Promise<void> {
      await db.deleteFrom('storage_path').where('id', '=', id).execute();
    },
  };
}

export type ClusterRepository = ReturnType<typeof createClusterRepository>;
