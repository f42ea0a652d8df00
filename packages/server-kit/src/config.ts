import { Value } from 'typebox/value';
import type { Static, TObject } from 'typebox';

/**
 * Reads the environment once at start into one typed object (DESIGN.md §5.4): applies defaults, converts strings
 * to numbers and booleans, and fails fast naming every variable that is wrong.
 */
export function loadConfig<T extends TObject>(schema: T, env: Record<string, string | undefined>): Static<T> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') raw[key] = v;
  }
  const value = Value.Convert(schema, Value.Default(schema, raw));
  const errors = [...Value.Errors(schema, value)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.instancePath.slice(1) || '(config)'}: ${e.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return value as Static<T>;
}
