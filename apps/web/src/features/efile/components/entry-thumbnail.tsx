import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Images above this size get no thumbnail: the browser would fetch the whole file for a 20-pixel picture, and a
 * folder of camera images or microscope tiles would pull hundreds of megabytes for one listing (issue 25 §3.11).
 */
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

interface Props {
  path: string;
  /** The image's URL (efile's raw preview through a one-minute ticket), asked only once the row is on screen. */
  urlOf: (path: string) => Promise<string>;
  /** What shows until the picture has loaded, and instead of it when it cannot. */
  fallback: ReactNode;
}

/**
 * A small picture of an image file in the list, lazy: the ticket and the bytes are asked for only when the row
 * scrolls into view, never for rows of another page. Shown through <img> (an SVG cannot run script that way, and
 * the raw preview carries a sandbox CSP besides); decorative, since the name beside it says what it is.
 */
export function EntryThumbnail({ path, urlOf, fallback }: Props) {
  const holder = useRef<HTMLSpanElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [state, setState] = useState<'waiting' | 'loaded' | 'failed'>('waiting');

  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    let live = true;
    const ask = () => {
      urlOf(path).then(
        (u) => live && setUrl(u),
        () => live && setState('failed'),
      );
    };
    // Without IntersectionObserver (old browsers, jsdom) the picture is asked for at once.
    if (typeof IntersectionObserver === 'undefined') {
      ask();
      return () => {
        live = false;
      };
    }
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seen.disconnect();
      ask();
    });
    seen.observe(el);
    return () => {
      live = false;
      seen.disconnect();
    };
  }, [path, urlOf]);

  return (
    <span ref={holder} className="efile-thumb-holder">
      {state !== 'loaded' && fallback}
      {url && state !== 'failed' ? (
        <img
          className="efile-thumb"
          data-testid="efile-thumb"
          src={url}
          alt=""
          width={20}
          height={20}
          decoding="async"
          hidden={state !== 'loaded'}
          onLoad={() => setState('loaded')}
          onError={() => setState('failed')}
        />
      ) : null}
    </span>
  );
}
