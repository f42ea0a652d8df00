import { describe, expect, it } from 'vitest';
import { parseForm } from './form-body';

describe('parseForm', () => {
  it('turns repeated keys and key[] into arrays and keeps single keys scalar', () => {
    expect(parseForm('a=1&b=2&b=3&c[]=4&d=%E4%B8%AD+x')).toEqual({
      a: '1',
      b: ['2', '3'],
      c: ['4'],
      d: '中 x',
    });
  });
  it('answers an empty object for an empty body', () => {
    expect(parseForm('')).toEqual({});
  });
});
