import type { Element, ElementContent, Root, RootContent } from 'hast';
import { slugify } from './markdown-links';

const HEADING = /^h[1-6]$/;

function textOf(node: ElementContent | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/**
 * Gives every heading a GitHub-style id. It runs after rehype-sanitize on purpose: sanitizing prefixes
 * author-written ids ("user-content-") to stop DOM clobbering, while these ids come from the heading text.
 * Repeated headings get -1, -2 … like GitHub.
 */
export function rehypeHeadingIds() {
  return (tree: Root) => {
    const seen = new Map<string, number>();
    const walk = (nodes: (RootContent | ElementContent)[]) => {
      for (const node of nodes) {
        if (node.type !== 'element') continue;
        const el: Element = node;
        if (HEADING.test(el.tagName)) {
          const base = slugify(textOf(el)) || 'section';
          const n = seen.get(base) ?? 0;
          seen.set(base, n + 1);
          el.properties = { ...el.properties, id: n ? `${base}-${n}` : base };
        } else {
          walk(el.children);
        }
      }
    };
    walk(tree.children);
  };
}
