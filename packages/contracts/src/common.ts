import { Type, type Static, type TSchema } from 'typebox';

/** Page number (1-based) and page size, as every paged list takes them. */
export const PageQuery = Type.Object({
  pageNum: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
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
