import type { FastifySchemaValidationError } from 'fastify';

/**
 * A request that failed its schema, said in Chinese for a client that asks for it (the English is Fastify's own
 * text). Each failure names where it is (`body/name`) and what the schema wanted, for the keywords our schemas use;
 * any other keyword says only where.
 */
export function validationTextZh(where: string, errors: readonly FastifySchemaValidationError[]): string {
  return errors.map((e) => `${where}${e.instancePath} ${keywordZh(e)}`).join('；');
}

function keywordZh(e: FastifySchemaValidationError): string {
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return `缺少必填字段 ${String(p.missingProperty)}`;
    case 'type':
      return `类型应为 ${String(p.type)}`;
    case 'maxLength':
      return `长度不能超过 ${String(p.limit)} 个字符`;
    case 'minLength':
      return `长度不能少于 ${String(p.limit)} 个字符`;
    case 'maximum':
      return `不能大于 ${String(p.limit)}`;
    case 'minimum':
      return `不能小于 ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `应小于 ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `应大于 ${String(p.limit)}`;
    case 'maxItems':
      return `最多 ${String(p.limit)} 项`;
    case 'minItems':
      return `至少 ${String(p.limit)} 项`;
    case 'enum':
      return `应为以下值之一：${(p.allowedValues as unknown[] | undefined)?.map(String).join('、') ?? ''}`;
    case 'const':
      return `应为 ${String(p.allowedValue)}`;
    case 'pattern':
      return '格式不正确';
    case 'format':
      return `格式应为 ${String(p.format)}`;
    case 'additionalProperties':
      return `不允许的字段 ${String(p.additionalProperty)}`;
    case 'anyOf':
    case 'oneOf':
      return '不符合任何一种允许的形式';
    default:
      return '不符合要求';
  }
}
