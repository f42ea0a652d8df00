import { useEffect, useState } from 'react';

/** Ticks every second, for a running job's elapsed time and time left between two refreshes. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return now;
}
