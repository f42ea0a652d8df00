import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { stripRouteSchemasPlugin } from '../../scripts/strip-route-schemas';

const portal = 'http://127.0.0.1:8080';

/**
 * Some API prefixes are also SPA routes (`/model-zoo/list` is a page, `/model-zoo/model/list` a call). Like the
 * portal, the dev server answers a browser navigation (Accept: text/html) with the app and proxies the rest.
 */
const api: ProxyOptions = {
  target: portal,
  changeOrigin: false,
  bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
};

export default defineConfig({
  // The contracts' route tables are read for method and path only: their schemas are dropped from the bundle.
  plugins: [react(), stripRouteSchemasPlugin()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/api', '/image-center', '/model-zoo', '/app-center', '/catalog-files', '/efile', '/docs'].map((p) => [
        p,
        api,
      ]),
    ),
  },
  build: {
    // The manifest lets scripts/report-size.mjs find the chunks a route loads.
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      treeshake: {
        // @hpc/contracts builds its TypeBox schemas at module level; the web uses its constants (limits, error
        // codes) and types, never the schemas. Marking `Type.*` calls pure lets Rollup drop the unused schemas and
        // with them TypeBox (~30 KB gzip) from the first load.
        manualPureFunctions: ['Type'],
        moduleSideEffects: (id) => !/[\\/](node_modules[\\/]typebox|packages[\\/]contracts)[\\/]/.test(id),
      },
    },
  },
});
