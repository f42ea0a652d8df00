import { Type, type Static, type TSchema } from 'typebox';

/**
 * The largest page number a paged list takes: the largest 32-bit integer, past any list's last page, with which the
 * offset (times the largest page size, 500) stays an exact integer in JavaScript, SQLite and PostgreSQL. Without a
 * maximum, `pageNum=1e20` reached SQLite as a datatype mismatch (a 500, not the 1004 of invalid input). Infinity
 * (`Infinity`, `1e400`) passes any maximum in the validator; the services' server refuses it (server-kit's
 * `createServer`).
 */
export const MAX_PAGE_NUM = 2_147_483_647;

/** Page number (1-based) and page size, as every paged list takes them. */
export const PageQuery = Type.Object({
  pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
});
export type PageQuery = Static<typeof PageQuery>;

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    list: Type.Array(item),
    total: Type.Integer(),
    pageNum: Type.Integer(),
    pageSize: Type.Integer(),
  });

export const Locale = Type.Union([Type.Literal('zh-CN'), Type.Literal('en-US')]);
export type Locale = Static<typeof Locale>;

/** The body of a download, for the OpenAPI description of a route that answers bytes. */
export const Binary = Type.Unsafe<unknown>({ type: 'string', format: 'binary' });
