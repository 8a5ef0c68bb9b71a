import type { Picture as PictureModel } from './model.ts';

/**
 * A picture in modern formats with a JPEG fallback, each at the widths of the layout: the browser
 * picks the smallest that fills the box. width and height keep the box's shape while it loads; only
 * the first picture on screen is fetched at once (with high priority), every other one when it nears the screen.
 */
export function Picture({ picture: p, className }: { picture: PictureModel; className: string }) {
  return (
    <picture className={className}>
      {p.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcSet} sizes={p.sizes} />
      ))}
      <img
        src={p.src}
        srcSet={p.srcSet}
        sizes={p.sizes}
        width={p.width}
        height={p.height}
        alt={p.alt.text}
        lang={p.alt.lang}
        decoding="async"
        {...(p.priority ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })}
      />
    </picture>
  );
}
