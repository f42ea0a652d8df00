import type { EshellApp, EshellContext } from '../http/context';
import { shellRoutes } from './shell/shell.routes';

/** Registers every feature of the shell service on its scope. */
export async function registerFeatures(app: EshellApp, ctx: EshellContext): Promise<void> {
  shellRoutes(app, ctx);
}
