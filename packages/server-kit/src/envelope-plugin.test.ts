import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { createServer } from './fastify';
import { AppError } from './app-error';
import { ok } from './envelope-plugin';
import { loadConfig } from './config';

function app() {
  const a = createServer({ logLevel: 'silent', spaIndexHtml: () => Buffer.from('<html>spa</html>') });
  a.post('/echo', { schema: { body: Type.Object({ n: Type.Integer({ minimum: 1 }) }) } }, (req) =>
    ok(req.body.n),
  );
  a.get('/fail', () => {
    throw new AppError('1021');
  });
  a.get('/occasion', () => {
    throw new AppError('1022', { en: 'Not a folder: /data/x', zh: '不是文件夹：/data/x' });
  });
  a.get('/relayed', () => {
    throw new AppError('1022', 'relayed from elsewhere');
  });
  a.get('/plugin-refusal', () => {
    throw Object.assign(new Error("a plugin's own words"), { statusCode: 403 });
  });
  a.get('/boom', () => {
    throw new Error('secret detail');
  });
  return a;
}

describe('envelope handlers', () => {
  it('wraps success', async () => {
    const r = await app().inject({ method: 'POST', url: '/echo', payload: { n: 2 } });
    expect(r.json()).toEqual({ code: '0', msg: 'success', data: 2 });
  });
  it('maps a missing field to 1003 and a bad value to 1004, with 400', async () => {
    const missing = await app().inject({ method: 'POST', url: '/echo', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('1003');
    const bad = await app().inject({ method: 'POST', url: '/echo', payload: { n: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('1004');
  });
  it('maps AppError to its code and status', async () => {
    const r = await app().inject({ method: 'GET', url: '/fail' });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ code: '1021', data: null });
  });
  it('answers a message written for the occasion in the language asked, and says which', async () => {
    const ask = (url: string, lang?: string) =>
      app().inject({ method: 'GET', url, headers: lang ? { 'accept-language': lang } : {} });
    const zh = await ask('/occasion', 'zh-CN,zh;q=0.9,en;q=0.8');
    expect(zh.json()).toMatchObject({ code: '1022', msg: '不是文件夹：/data/x' });
    expect(zh.headers['content-language']).toBe('zh-CN');
    const en = await ask('/occasion', 'en-US');
    expect(en.json().msg).toBe('Not a folder: /data/x');
    expect(en.headers['content-language']).toBe('en-US');
    expect((await ask('/occasion')).json().msg).toBe('Not a folder: /data/x');
    // The registry's own text has its Chinese; a message relayed with no Chinese stays English and says so.
    expect((await ask('/fail', 'zh')).json().msg).toBe('已存在同名文件');
    const relayed = await ask('/relayed', 'zh-CN');
    expect(relayed.json().msg).toBe('relayed from elsewhere');
    expect(relayed.headers['content-language']).toBe('en-US');
  });
  it('says what failed validation in Chinese too', async () => {
    const post = (payload: Record<string, unknown>, lang: string) =>
      app().inject({ method: 'POST', url: '/echo', payload, headers: { 'accept-language': lang } });
    const missing = await post({}, 'zh-CN');
    expect(missing.json()).toMatchObject({
      code: '1003',
      msg: '参数异常：参数不完整（body 缺少必填字段 n）',
    });
    expect(missing.headers['content-language']).toBe('zh-CN');
    expect((await post({ n: 0 }, 'zh-CN')).json().msg).toBe('输入无效（body/n 不能小于 1）');
    // The details name the field and the rule in no language, and none of the server's schema internals.
    expect((await post({ n: 0 }, 'zh-CN')).json().data).toEqual({
      errors: [{ field: 'body/n', keyword: 'minimum', params: { comparison: '>=', limit: 1 } }],
    });
    expect((await post({ n: 'x' }, 'zh-CN')).json().msg).toBe('输入无效（body/n 类型应为 integer）');
    // Fastify's message names where already: said once (it read "body body/n must be >= 1").
    expect((await post({ n: 0 }, 'en')).json().msg).toBe('Invalid input: body/n must be >= 1');
  });
  // Fastify's own refusals of a body (its parser's, before any route runs) were its English text for every reader.
  it("answers the framework's refusals of a body in the language asked, with their codes and statuses", async () => {
    const post = (payload: string, type: string | null, lang: string, extra: Record<string, string> = {}) =>
      app().inject({
        method: 'POST',
        url: '/echo',
        payload,
        headers: { ...(type ? { 'content-type': type } : {}), 'accept-language': lang, ...extra },
      });
    const both = async (payload: string, type: string | null, extra?: Record<string, string>) => {
      const [zh, en] = [await post(payload, type, 'zh-CN', extra), await post(payload, type, 'en-US', extra)];
      expect(zh.headers['content-language']).toBe('zh-CN');
      expect(en.headers['content-language']).toBe('en-US');
      expect([zh.statusCode, zh.json().code]).toEqual([en.statusCode, en.json().code]);
      return { status: zh.statusCode, code: zh.json().code, zh: zh.json().msg, en: en.json().msg };
    };
    expect(await both('{bad', 'application/json')).toEqual({
      status: 400,
      code: '1004',
      zh: '输入无效：请求体不是有效的 JSON',
      en: 'Invalid input: the body is not valid JSON',
    });
    // Well-formed, but naming a key that could pollute a prototype: refused, and told apart from broken JSON.
    for (const body of ['{"__proto__":{"admin":true},"a":1}', '{"a":{"constructor":{"prototype":{"x":1}}}}'])
      expect(await both(body, 'application/json')).toEqual({
        status: 400,
        code: '1004',
        zh: '输入无效：请求体含有任何请求都不得使用的键“__proto__”或“constructor.prototype”',
        en: 'Invalid input: the body names "__proto__" or "constructor.prototype", which no request may use',
      });
    expect(await both('{"a":1, "__proto__":', 'application/json')).toMatchObject({
      en: 'Invalid input: the body is not valid JSON',
    });
    expect(await both('', 'application/json')).toEqual({
      status: 415,
      code: '1004',
      zh: '输入无效：内容类型为 application/json，但请求体为空',
      en: 'Invalid input: the content type is application/json but the body is empty',
    });
    expect(await both('<n>1</n>', 'text/xml')).toEqual({
      status: 415,
      code: '1004',
      zh: '不支持的内容类型：text/xml',
      en: 'Unsupported content type: text/xml',
    });
    expect(await both('<n>1</n>', null)).toEqual({
      status: 415,
      code: '1004',
      zh: '不支持的内容类型：请求带有请求体，但没有内容类型',
      en: 'Unsupported content type: the request has a body but no content type',
    });
    expect(await both('{"n":1}', 'application/json', { 'content-length': '3' })).toEqual({
      status: 400,
      code: '1004',
      zh: '输入无效：请求体的大小与 Content-Length 不符',
      en: 'Invalid input: the body does not have the size its Content-Length says',
    });
    expect(
      await both(JSON.stringify({ n: 1, pad: 'x'.repeat(2 * 1024 * 1024) }), 'application/json'),
    ).toEqual({
      status: 413,
      code: '1011',
      zh: '文件过大',
      en: 'File too large',
    });
  });
  it("answers a plugin's other refusal with the registry's Chinese, keeping its English for others", async () => {
    const ask = (lang: string) =>
      app().inject({ method: 'GET', url: '/plugin-refusal', headers: { 'accept-language': lang } });
    const zh = await ask('zh-CN');
    expect([zh.statusCode, zh.json().code, zh.json().msg]).toEqual([403, '1004', '输入无效']);
    expect(zh.headers['content-language']).toBe('zh-CN');
    expect((await ask('en-US')).json().msg).toBe("a plugin's own words");
  });
  it('answers an address that is no valid URL with the envelope, in the language asked', async () => {
    const a = app();
    a.get('/user/:name', (req) => ok((req.params as { name: string }).name));
    for (const [lang, msg] of [
      ['zh-CN', '输入无效：地址无效（% 编码有误）'],
      ['en-US', 'Invalid input: the address is not valid (a broken %-encoding)'],
    ] as const) {
      const res = await a.inject({ url: '/user/%zz', headers: { 'accept-language': lang } });
      expect([res.statusCode, res.json()]).toEqual([400, { code: '1004', msg, data: null }]);
    }
  });

  it('hides unexpected errors behind "Server internal error."', async () => {
    const r = await app().inject({ method: 'GET', url: '/boom' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ code: '500', msg: 'Server internal error.', data: null });
  });
  it('answers unknown API calls with the 404 envelope and browser navigations with the SPA', async () => {
    const api = await app().inject({ method: 'GET', url: '/nope', headers: { accept: 'application/json' } });
    expect(api.statusCode).toBe(404);
    expect(api.json().msg).toBe('The page or interface does not exist!');
    const page = await app().inject({
      method: 'GET',
      url: '/model-zoo/list',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('spa');
  });
});

describe('loadConfig', () => {
  const schema = Type.Object({
    PORT: Type.Integer({ default: 8080 }),
    FLAG: Type.Boolean({ default: false }),
  });
  it('applies defaults and converts strings', () => {
    expect(loadConfig(schema, {})).toEqual({ PORT: 8080, FLAG: false });
    expect(loadConfig(schema, { PORT: '9000', FLAG: 'true' })).toEqual({ PORT: 9000, FLAG: true });
  });
  it('fails fast naming the bad variable', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty' })).toThrow(/PORT/);
  });
});
