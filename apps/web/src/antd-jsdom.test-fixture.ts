import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import './shared/i18n/i18n';

/**
 * What Ant Design needs of a browser that jsdom does not have (media queries for responsive columns, element
 * resizing for tables and tabs). Imported first by the component tests that run under jsdom; texts are not
 * loaded there, so the components show their catalogue keys, which the tests assert.
 */
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
afterEach(cleanup);
