import { useEffect, type ComponentProps } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Markdown, { type Components } from 'react-markdown';
import { Link, useLocation, useNavigate } from 'react-router';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import remarkGfm from 'remark-gfm';
import { descPathByTime, imagePath } from '../../catalog/catalog-paths';
import { classifyLink } from './markdown-links';
import './markdown.css';

/**
 * The heavy half of the markdown viewer (react-markdown, GFM, highlight.js): a separate chunk loaded only by
 * detail pages. Raw HTML in the text is never rendered (no rehype-raw) and the tree is sanitized with GitHub's
 * schema before anything else touches it.
 */
const rehypePlugins: ComponentProps<typeof Markdown>['rehypePlugins'] = [
  [rehypeSanitize, defaultSchema],
  // GitHub's heading ids (github-slugger: lower case, punctuation dropped, any script kept, repeats -1, -2 …), so
  // `[see](#installation)` and `/model-zoo/3#安装` reach their heading. After the sanitizer on purpose: it prefixes
  // author-written ids ("user-content-") against DOM clobbering, while these come from the heading text.
  rehypeSlug,
  // Only blocks that name their language: guessing costs time and colours prose wrongly.
  [rehypeHighlight, { detect: false }],
];

function MdLink({ href = '', children, ...rest }: ComponentProps<'a'>) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const link = classifyLink(href);
  const props = { title: rest.title, children };
  switch (link.kind) {
    case 'image-by-time':
      return (
        <a
          {...props}
          href={href}
          onClick={(e) => {
            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
            e.preventDefault();
            // Failures are shown by the query cache's error handler (spec §8); the click then does nothing.
            queryClient
              .fetchQuery(descPathByTime(link.createTime))
              .then((d) => navigate(imagePath(d.acceleratorType, d.imageName, link.hash)))
              .catch(() => undefined);
          }}
        />
      );
    case 'route':
      return <Link {...props} to={link.to} />;
    case 'anchor':
      return <a {...props} href={link.hash} />;
    case 'external':
      return <a {...props} href={link.href} target="_blank" rel="noopener noreferrer nofollow" />;
    case 'plain':
      return <a {...props} href={link.href} />;
  }
}

const components: Components = {
  a: ({ node: _node, ...props }) => <MdLink {...props} />,
  img: ({ node: _node, src, alt, title }) => (
    <img src={typeof src === 'string' ? src : undefined} alt={alt ?? ''} title={title} loading="lazy" />
  ),
  // Code blocks and wide tables scroll sideways: focusable, so the keyboard can scroll them too (axe
  // scrollable-region-focusable, WCAG 2.1.1).
  pre: ({ node: _node, ...props }) => <pre tabIndex={0} {...props} />,
  table: ({ node: _node, ...props }) => (
    // Wide tables scroll inside the article instead of widening the page.
    <div className="hpc-md-table" tabIndex={0}>
      <table {...props} />
    </div>
  ),
};

export default function MarkdownBody({ text }: { text: string }) {
  const { hash } = useLocation();
  // Content arrives after navigation: scroll to the anchor of the address once the headings exist.
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    document.getElementById(id)?.scrollIntoView({ block: 'start' });
  }, [hash, text]);

  return (
    <div className="hpc-markdown">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
