import { useEffect, useState } from 'react';

/**
 * Ticks every second while `active`, for a running job's elapsed time and time left between two refreshes; a job
 * that is not running has nothing to count, and its clock stands still.
 */
export function useNow(active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [active]);
  return now;
}
