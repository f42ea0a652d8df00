import fs from 'node:fs';
import path from 'node:path';
import type { AppServer } from '@hpc/server-kit';
import {
  buildPortal,
  ownerRightsLookup,
  publishMountedJobService,
  publishMountedShellService,
  readPortalConfig,
  type PortalConfig,
} from '@hpc/portal';
import { openEfileDeps, readEfileConfig, registerEfile } from '@hpc/efile';
import { openJobsDeps, readJobsConfig, registerJobs } from '@hpc/jobs';
import { openEshellDeps, readEshellConfig, registerEshell } from '@hpc/eshell';

/** The demo clusters whose efile instances this process mounts under /efile/<clusterId>/. */
export const DEMO_CLUSTERS = ['11250', '11251'];

/**
 * The all-in-one composition (DESIGN.md §2): the portal serving the SPA, and an efile instance for each demo
 * cluster mounted under /efile/<clusterId>/ on the same server. The one place that composes portal and efile;
 * `main.ts` listens, benchmarks build it in-process.
 */
export async function buildAllInOne(
  env: Record<string, string | undefined> = process.env,
): Promise<{ app: AppServer; config: PortalConfig }> {
  const config = readPortalConfig(env);
  const { app, deps } = await buildPortal(config);
  const rightsOn = ownerRightsLookup(deps);
  /** What a cluster's service trusts the portal for, in-process: its JWKS, the users' rights, its revocations. */
  const portalTrust = (clusterId: string) => ({
    jwks: () => deps.publicJwks(),
    ownerRights: rightsOn(clusterId),
    // One revocation store for the process: a logout on the portal reaches every service at once.
    revocations: deps.revocations,
  });
  // The demo cluster whose scheduler this machine is (`npm run start:cluster` sets it): its E-File serves the real
  // file system, where the scheduler's jobs run and write, and its job service is mounted at /jobs/<id>.
  const jobsCluster =
    env.JOBS_CLUSTER_ID && DEMO_CLUSTERS.includes(env.JOBS_CLUSTER_ID) ? env.JOBS_CLUSTER_ID : null;

  for (const clusterId of DEMO_CLUSTERS) {
    // Each cluster's file system is DATA_DIR/clusters/<id>/ (cluster path /public/home/demo/a.txt maps below it);
    // its state is a SQLite file of its own, or a schema of its own when the portal runs on PostgreSQL.
    const pg = /^postgres(ql)?:\/\//.test(config.DATABASE_URL);
    const efileConfig = readEfileConfig({
      ...env,
      EFILE_CLUSTER_ID: clusterId,
      EFILE_FS_ROOT: clusterId === jobsCluster ? '/' : path.join(config.dataDir, 'clusters', clusterId),
      EFILE_DEMO: env.EFILE_DEMO ?? 'true',
      EFILE_PORTAL_PUBLIC_URL: config.PUBLIC_URL,
      DATA_DIR: config.dataDir,
      DATABASE_URL: pg ? config.DATABASE_URL : '',
    });
    if (pg) efileConfig.databaseSchema = `efile_${clusterId}`;
    if (efileConfig.EFILE_USER_MODE === 'unix') reachableByUsers(efileConfig.fsRoot);
    const efileDeps = await openEfileDeps(efileConfig, portalTrust(clusterId));
    app.addHook('onClose', () => efileDeps.close());
    await registerEfile(app, efileDeps, { prefix: `/efile/${clusterId}` });
  }

  if (jobsCluster) {
    const jobsConfig = readJobsConfig({
      ...env,
      JOBS_CLUSTER_ID: jobsCluster,
      // Each user's jobs are submitted by a process running as that user: the per-user mode of E-File here too.
      JOBS_USER_MODE: env.JOBS_USER_MODE ?? env.EFILE_USER_MODE ?? 'single',
      JOBS_FS_ROOT: '/',
      // The demo homes, as its E-File makes them: whichever of the two a user calls first makes the home.
      JOBS_DEMO: env.JOBS_DEMO ?? env.EFILE_DEMO ?? 'true',
      DATA_DIR: config.dataDir,
    });
    const jobsDeps = await openJobsDeps(jobsConfig, portalTrust(jobsCluster));
    app.addHook('onClose', () => jobsDeps.close());
    await registerJobs(app, jobsDeps, { prefix: `/jobs/${jobsCluster}` });
  }
  // The cluster's service list names the job service exactly while it is mounted (none: "no scheduler").
  await publishMountedJobService(deps, jobsCluster, jobsCluster ? `/jobs/${jobsCluster}` : null);

  // The shell service (issue 26), when this machine has an sshd with the portal's SSH CA (`npm run start:cluster`
  // sets ESHELL_CA_KEY and ESHELL_LOGIN_NODES): mounted at /eshell/<id> and published as the cluster's
  // sothisai_service with its login node; without it the centre lists no shell and the page says so.
  const shellCluster =
    env.ESHELL_CA_KEY && env.ESHELL_LOGIN_NODES
      ? (env.ESHELL_CLUSTER_ID ?? jobsCluster ?? DEMO_CLUSTERS[0]!)
      : null;
  let shellNodes: string[] = [];
  if (shellCluster) {
    const eshellConfig = readEshellConfig({
      ...env,
      ESHELL_CLUSTER_ID: shellCluster,
      DATA_DIR: config.dataDir,
      ESHELL_HOME_PATTERN: env.ESHELL_HOME_PATTERN ?? '/public/home/{user}',
    });
    const eshellDeps = await openEshellDeps(eshellConfig, app.log, portalTrust(shellCluster));
    app.addHook('onClose', () => eshellDeps.close());
    await registerEshell(app, eshellDeps, { prefix: `/eshell/${shellCluster}` });
    shellNodes = eshellConfig.loginNodes.map((n) => n.address);
  }
  await publishMountedShellService(
    deps,
    shellCluster,
    shellCluster ? `/eshell/${shellCluster}` : null,
    shellNodes,
  );
  return { app, config };
}

/**
 * Unix mode (issue 10 §1): each user's worker runs as that user and must walk down to its home under the cluster
 * root. The roots this process makes are 0755; a folder above them that others cannot search (a 0700 DATA_DIR)
 * would make every file call fail with 1030, so it is refused at start with the fix to apply.
 */
function reachableByUsers(fsRoot: string): void {
  fs.mkdirSync(fsRoot, { recursive: true });
  fs.chmodSync(fsRoot, 0o755);
  fs.chmodSync(path.dirname(fsRoot), 0o755);
  for (let d = path.dirname(path.dirname(fsRoot)); ; d = path.dirname(d)) {
    if ((fs.statSync(d).mode & 0o001) === 0)
      throw new Error(
        `EFILE_USER_MODE=unix: cluster users cannot reach their files under ${fsRoot}, because ${d} is not ` +
          `searchable by others: chmod o+x ${d} (or choose another DATA_DIR)`,
      );
    if (d === path.dirname(d)) break;
  }
}
