import { describe, expect, it } from 'vitest';
import { classifyLink } from './markdown-links';

describe('classifyLink', () => {
  it('recognises image links by creation time with their anchor', () => {
    expect(classifyLink('/image/1718000000000#usage')).toEqual({
      kind: 'image-by-time',
      createTime: 1718000000000,
      hash: '#usage',
    });
    expect(classifyLink('/image/1718000000000')).toMatchObject({ kind: 'image-by-time', hash: '' });
  });

  it('keeps model links and other pages as in-app routes, API paths and files as plain links', () => {
    expect(classifyLink('/model-zoo/12#快速开始')).toEqual({ kind: 'route', to: '/model-zoo/12#快速开始' });
    expect(classifyLink('/image/GPU/pytorch%3A2.4')).toEqual({
      kind: 'route',
      to: '/image/GPU/pytorch%3A2.4',
    });
    expect(classifyLink('/model-zoo/model/file/view?filePath=a')).toMatchObject({ kind: 'plain' });
    expect(classifyLink('/catalog-files/images/a.png')).toMatchObject({ kind: 'plain' });
  });

  it('separates anchors and external links', () => {
    expect(classifyLink('#install')).toEqual({ kind: 'anchor', hash: '#install' });
    expect(classifyLink('https://pytorch.org')).toMatchObject({ kind: 'external' });
    expect(classifyLink('//cdn.example.org/x')).toMatchObject({ kind: 'external' });
    expect(classifyLink('mailto:hpc@example.org')).toMatchObject({ kind: 'external' });
  });
});
