/** How long a count read from the database is trusted while this process adds to it. */
const RECOUNT_MS = 10_000;

/**
 * The bound on the upload sessions one user has open at once (EFILE_MAX_OPEN_UPLOADS, config.ts): the check before
 * a session's row is created, one user's checks one after another in this process, so that a parallel burst of begins cannot all see room for one more. The count is the database's (every instance's rows),
 * read again every 10 s or when the estimate reaches the limit; in between, this process adds what it created
 * itself (rows removed meanwhile only make the estimate high, never low). Several instances scaled out may each
 * admit within one recount's 10 s, so the bound there is the limit plus what the others created in that time.
 */
export function openAllowance(countOpen: (sub: string, limit: number) => Promise<number>, max: number) {
  const queues = new Map<string, Promise<unknown>>();
  const counts = new Map<string, { n: number; at: number }>();

  async function admitNow<T>(sub: string, create: () => Promise<T>): Promise<T | null> {
    let known = counts.get(sub);
    if (!known || known.n >= max || Date.now() - known.at > RECOUNT_MS) {
      known = { n: await countOpen(sub, max), at: Date.now() };
      counts.set(sub, known);
    }
    if (known.n >= max) return null;
    const made = await create();
    known.n++;
    return made;
  }

  return {
    /** Runs `create` (the row's insert) while `sub` has fewer than `max` sessions open; null, creating nothing, when not. */
    admit<T>(sub: string, create: () => Promise<T>): Promise<T | null> {
      const before = queues.get(sub) ?? Promise.resolve();
      const run = before.then(() => admitNow(sub, create));
      const settled = run.catch(() => undefined);
      queues.set(sub, settled);
      // The queue of a user with nothing waiting is forgotten; so are counts too old to be used again.
      void settled.then(() => {
        if (queues.get(sub) === settled) queues.delete(sub);
        const now = Date.now();
        for (const [k, c] of counts) if (now - c.at > RECOUNT_MS && !queues.has(k)) counts.delete(k);
      });
      return run;
    },
  };
}
