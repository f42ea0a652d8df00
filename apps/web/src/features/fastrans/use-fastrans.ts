import { useSyncExternalStore } from 'react';
import { fastransClient, type FastransSnapshot } from './fastrans-client';

/** The fast-transfer client's state (detection, connection, tasks) for a component. */
export function useFastrans(): FastransSnapshot {
  return useSyncExternalStore(fastransClient.subscribe, fastransClient.getSnapshot);
}
