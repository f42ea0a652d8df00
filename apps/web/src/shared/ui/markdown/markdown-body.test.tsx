import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import MarkdownBody from './markdown-body';

/** Server-renders the markdown the way a detail page shows it (router and query client around it). */
function render(text: string): string {
  const router = createMemoryRouter([{ path: '*', element: <MarkdownBody text={text} /> }]);
  return renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('MarkdownBody', () => {
  it('renders GFM tables, highlighted code, images and heading ids', () => {
    const html = render(
      [
        '## Quick start 快速开始',
        '| a | b |',
        '| - | - |',
        '| 1 | 2 |',
        '```python',
        'import torch',
        '```',
        '![node](/catalog-files/images/gpu-node.svg)',
      ].join('\n'),
    );
    expect(html).toContain('<h2 id="quick-start-快速开始">');
    expect(html).toMatch(/<table>[\s\S]*<td>1<\/td>/);
    expect(html).toContain('<span class="hljs-keyword">import</span>');
    expect(html).toMatch(/<img src="\/catalog-files\/images\/gpu-node.svg" alt="node"/);
  });

  it('gives headings GitHub-style ids in any script, numbering repeats', () => {
    const html = render(
      ['## Quick Start!', '## 快速 开始（GPU）', '## C++ & CUDA 12.1', '## Quick Start!'].join('\n\n'),
    );
    expect(html).toContain('<h2 id="quick-start">');
    expect(html).toContain('<h2 id="快速-开始gpu">');
    expect(html).toContain('<h2 id="c--cuda-121">');
    expect(html).toContain('<h2 id="quick-start-1">');
  });

  it('never renders raw HTML or script URLs from the text', () => {
    const html = render(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror="alert(2)">',
        '<iframe src="https://evil.example"></iframe>',
        '[click](javascript:alert(3))',
        '<a href="#" onclick="alert(4)">x</a>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|<iframe|onerror|onclick|javascript:/i);
  });

  it('rewrites in-app links and opens other sites in a new tab', () => {
    const html = render('[m](/model-zoo/12#usage) [e](https://pytorch.org) [a](#usage)');
    expect(html).toContain('href="/model-zoo/12#usage"');
    expect(html).toMatch(/href="https:\/\/pytorch.org" target="_blank" rel="noopener noreferrer nofollow"/);
    expect(html).toContain('href="#usage"');
  });
});
