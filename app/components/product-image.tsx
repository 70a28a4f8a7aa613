import { useEffect, useRef, useState } from "react";

/**
 * An item image over its "No Image" placeholder: a missing or broken image leaves the placeholder
 * visible even without JavaScript; with JavaScript a failed image is removed.
 */
export function ProductImage({ src, label, size = 48 }: { src: string | null; label: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // The error may fire before hydration attaches onError.
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  return (
    <span className="thumb">
      <span className="no-image" role="img" aria-label={`No image for ${label}`}>
        No Image
      </span>
      {src && !failed && <img ref={ref} src={src} alt="" loading="lazy" width={size} height={size} onError={() => setFailed(true)} />}
    </span>
  );
}
