import { onSessionEnd } from '../account';
import { createServiceDiscovery, type KeyValueStorage } from './service-discovery';

/** sessionStorage looked up on each use: reading it can throw (privacy modes), and the discovery copes with that. */
const tabStorage: KeyValueStorage = {
  getItem: (k) => window.sessionStorage.getItem(k),
  setItem: (k, v) => window.sessionStorage.setItem(k, v),
  removeItem: (k) => window.sessionStorage.removeItem(k),
  key: (i) => window.sessionStorage.key(i),
  get length() {
    return window.sessionStorage.length;
  },
};

/** The app's service discovery: the page's own fetch, cached per tab. */
export const serviceDiscovery = createServiceDiscovery({
  fetch: (input, init) => window.fetch(input, init),
  storage: tabStorage,
});

onSessionEnd(() => serviceDiscovery.clear());
