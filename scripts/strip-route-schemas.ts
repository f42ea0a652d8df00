import { parseAst, type Plugin } from 'vite';

/**
 * The route tables of `packages/contracts/src/*.routes.ts` (`defineRoute({ method, path, query, body, response })`,
 * issue 23 §3) give the servers their schemas and the clients their method, path and body encoding. The browser
 * uses only the latter, but a table entry the web calls keeps every schema it names, and TypeBox with them (~30 KB
 * gzip, over the first load's budget of `apps/web/scripts/report-size.mjs`). This build step replaces the schema
 * properties of each `defineRoute({...})` in those modules with `undefined`; Rollup then drops the schemas (their
 * `Type.*` calls are marked pure in `apps/web/vite.config.ts`) and TypeBox with them. Servers, tests and Node
 * clients read the modules as they are.
 */

const SCHEMA_KEYS = new Set(['params', 'query', 'body', 'response', 'responses']);
const ROUTE_MODULE = /[\\/]packages[\\/]contracts[\\/]src[\\/][^\\/]+\.routes\.ts$/;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const isNode = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';

function walk(node: Node, visit: (n: Node) => void): void {
  visit(node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const item of value) if (isNode(item)) walk(item, visit);
    if (isNode(value)) walk(value, visit);
  }
}

/** The module's code with the schema properties of every `defineRoute({...})` replaced by `undefined`. */
export function stripRouteSchemas(code: string, id = 'module'): string {
  const cuts: { start: number; end: number }[] = [];
  walk(parseAst(code) as unknown as Node, (node) => {
    const callee = node.callee as Node | undefined;
    if (node.type !== 'CallExpression' || callee?.type !== 'Identifier' || callee.name !== 'defineRoute')
      return;
    const [arg] = node.arguments as Node[];
    // Anything but an object literal would keep its schemas unseen: refuse it rather than grow the bundle silently.
    if (arg?.type !== 'ObjectExpression')
      throw new Error(
        `${id}: defineRoute must be given an object literal, for the web build to drop its schemas`,
      );
    for (const prop of arg.properties as Node[]) {
      const key = prop.key as Node | undefined;
      if (prop.type !== 'Property' || prop.computed || key?.type !== 'Identifier') continue;
      if (SCHEMA_KEYS.has(key.name as string)) cuts.push(prop.value as Node);
    }
  });
  let out = code;
  for (const { start, end } of cuts.sort((a, b) => b.start - a.start))
    out = `${out.slice(0, start)}undefined${out.slice(end)}`;
  return out;
}

/** The Vite plugin: applied when building, to the contracts' route modules only. */
export function stripRouteSchemasPlugin(): Plugin {
  return {
    name: 'hpc:strip-route-schemas',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!ROUTE_MODULE.test(id)) return null;
      return { code: stripRouteSchemas(code, id), map: null };
    },
  };
}
