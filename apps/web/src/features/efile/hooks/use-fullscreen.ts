import { useCallback, useEffect, useState, type RefObject } from 'react';

/** Fullscreen for the file manager's own box (the Fullscreen API; a CSS fallback where it is refused). */
export function useFullscreen(ref: RefObject<HTMLElement | null>) {
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === ref.current && ref.current !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [ref]);
  const toggle = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    if (document.fullscreenElement) {
      void document.exitFullscreen();
    } else if (fullscreen) {
      setFullscreen(false);
    } else {
      el.requestFullscreen().catch(() => setFullscreen(true));
    }
  }, [ref, fullscreen]);
  return { fullscreen, toggle };
}
