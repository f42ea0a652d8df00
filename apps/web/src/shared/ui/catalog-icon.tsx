import { useState } from 'react';
import '../catalog/catalog.css';

interface Props {
  src: string | null | undefined;
  /** Name the fallback's initial is taken from. */
  name: string;
  size?: number;
}

/**
 * An item's icon; when there is none or it fails to load (onError), a coloured tile with the name's initial, so
 * a card never shows a broken image.
 */
export function CatalogIcon({ src, name, size = 44 }: Props) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size };
  if (src && !failed) {
    return (
      <img
        className="hpc-icon"
        style={style}
        src={src}
        alt=""
        loading="lazy"
        onError={() => setFailed(true)}
      />
    );
  }
  // A stable hue per name keeps neighbouring fallbacks apart without random flicker between renders.
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  return (
    <span
      className="hpc-icon hpc-icon-fallback"
      data-testid="icon-fallback"
      aria-hidden="true"
      style={{
        ...style,
        fontSize: size * 0.45,
        background: `hsl(${hue} 55% 92%)`,
        color: `hsl(${hue} 45% 38%)`,
      }}
    >
      {Array.from(name.trim())[0]?.toUpperCase() ?? '?'}
    </span>
  );
}
