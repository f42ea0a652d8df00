import { describe, expect, it } from 'vitest';
import { clusterServices, joinServiceUrl, parseServiceList } from './service-list';

describe('parseServiceList', () => {
  it('reads url and the text "true"/"false" of enable', () => {
    expect(
      parseServiceList(
        '[{"url":"/efile/11250/","enable":"true"},{"url":"https://b.example/efile","enable":"false"}]',
      ),
    ).toEqual([
      { url: '/efile/11250', enabled: true },
      { url: 'https://b.example/efile', enabled: false },
    ]);
  });

  it('accepts a boolean enable and ignores case and blanks', () => {
    expect(
      parseServiceList('[{"url":"a","enable":true},{"url":"b","enable":" TRUE "}]').map((e) => e.enabled),
    ).toEqual([true, true]);
  });

  it('treats missing, empty, malformed and non-array text as no services', () => {
    for (const raw of [undefined, null, '', '  ', 'not json', '{"url":"a"}', '"x"']) {
      expect(parseServiceList(raw)).toEqual([]);
    }
  });

  it('skips entries without a URL', () => {
    expect(parseServiceList('[null,{"enable":"true"},{"url":"  ","enable":"true"},{"url":"ok"}]')).toEqual([
      { url: 'ok', enabled: false },
    ]);
  });
});

describe('clusterServices', () => {
  it('reads the list of the kind from the params', () => {
    const params = {
      efileUrl: '[{"url":"/efile/1","enable":"true"}]',
      sothisai_service: '[{"url":"/s","enable":"true"}]',
    };
    expect(clusterServices({ params }, 'efile')).toEqual([{ url: '/efile/1', enabled: true }]);
    expect(clusterServices({ params }, 'eshell')).toEqual([{ url: '/s', enabled: true }]);
    expect(clusterServices({ params }, 'gridview')).toEqual([]);
  });
});

it('joinServiceUrl does not double slashes', () => {
  expect(joinServiceUrl('/efile/1/', '/check.action')).toBe('/efile/1/check.action');
  expect(joinServiceUrl('http://h:1', '/check.action')).toBe('http://h:1/check.action');
});
