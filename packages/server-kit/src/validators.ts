import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

/**
 * Marks a body that arrived as text fields (a form, or a body merged with the query string's fields): its values are
 * strings, and the schema's numbers, booleans and arrays are read from them. A JSON body is not marked.
 */
export const TEXT_FIELDS = Symbol('hpc.textFields');

/** `fields`, marked as text fields (see {@link TEXT_FIELDS}); the mark is not enumerable and travels nowhere. */
export function asTextFields<T extends object>(fields: T): T {
  Object.defineProperty(fields, TEXT_FIELDS, { value: true, enumerable: false });
  return fields;
}

/** Whether `v` arrived as text fields (see {@link TEXT_FIELDS}). */
export const isTextFields = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && (v as { [TEXT_FIELDS]?: boolean })[TEXT_FIELDS] === true;

type ValidateFn = ((data: unknown) => boolean) & { errors?: unknown };
type Compile = (route: { schema: unknown; method: string; url: string; httpPart?: string }) => ValidateFn;
interface AjvServerOptions {
  customOptions?: Record<string, unknown>;
}
/** The compiler pool of Fastify's own default, as it is called (its published types do not say so). */
type Pool = (external: unknown, options: AjvServerOptions) => Compile;
type Factories = NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/**
 * The validators of every route. A query string, path parameters, headers and a form carry only text, so their
 * schemas coerce (`"20"` is the number 20, a single repeated parameter an array: spec §7). A JSON body carries its
 * own types and is held to them: with one coercing Ajv for all parts, `{"pageSize": true}` was read as 1 and
 * `{"name": 5}` as "5", where the caller had sent the wrong type. Both are Fastify's default compiler (its pool
 * shares each Ajv among the routes), the second with coercion off.
 */
export function buildValidators(): Factories {
  const pool = AjvCompiler() as unknown as Pool;
  const buildValidator: Pool = (external, options) => {
    const coercing = pool(external, options);
    const strict = pool(external, {
      ...options,
      customOptions: { ...options.customOptions, coerceTypes: false },
    });
    return (route) => {
      const asText = coercing(route);
      if (route.httpPart !== 'body') return asText;
      const asJson = strict(route);
      const validate: ValidateFn = (data) => {
        const v = isTextFields(data) ? asText : asJson;
        const valid = v(data);
        validate.errors = v.errors;
        return valid;
      };
      return validate;
    };
  };
  return { buildValidator } as unknown as Factories;
}
