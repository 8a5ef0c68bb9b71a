import type { Image } from './image.ts';

/**
 * Where a picture is shown, and what the layout (templates/styles.css) needs of it there: the
 * shape it is cropped to, the widths it is encoded at, the `sizes` that tell a browser which to
 * take, and the width below which it would look blurred on a phone's screen.
 */
export type ImageUse = 'courseCard' | 'coursePage' | 'teacher' | 'banner' | 'homePhoto' | 'logo';

export interface UseSpec {
  /** Width ÷ height after cropping; undefined: the original's own shape (a logo is never cropped). */
  aspect?: number;
  /** CSS pixels × 1 and × 2 of the widest the layout shows it. */
  widths: number[];
  sizes: string;
  /** Narrower originals are reported by validate (image-too-small). */
  minWidth: number;
}

export const USES: Record<ImageUse, UseSpec> = {
  // .cards: columns of at least 16rem, at most about 24rem in the 72rem page; one column on a phone.
  courseCard: { aspect: 3 / 2, widths: [400, 800], sizes: '(min-width: 48rem) 24rem, calc(100vw - 2rem)', minWidth: 800 },
  // The course page's text column is 46rem wide.
  coursePage: { aspect: 16 / 9, widths: [480, 800, 1280], sizes: '(min-width: 48rem) 46rem, calc(100vw - 2rem)', minWidth: 800 },
  teacher: { aspect: 1, widths: [160, 320], sizes: '8rem', minWidth: 320 },
  banner: { aspect: 3 / 2, widths: [400, 800], sizes: '(min-width: 48rem) 24rem, calc(100vw - 2rem)', minWidth: 800 },
  homePhoto: { aspect: 2, widths: [640, 1152, 1920], sizes: '(min-width: 74rem) 72rem, calc(100vw - 2rem)', minWidth: 1152 },
  logo: { widths: [96, 192], sizes: '6rem', minWidth: 192 },
};

/** A rectangle of an original picture, in its pixels once turned upright. */
export interface Crop {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The largest rectangle of shape `aspect` in the original whose centre is as near the focal point as the edges allow. */
export function cropFor(size: { width: number; height: number }, aspect: number | undefined, focus: Image['focus']): Crop {
  const { width, height } = size;
  if (!aspect) return { left: 0, top: 0, width, height };
  const w = Math.min(width, Math.round(height * aspect));
  const h = Math.min(height, Math.round(w / aspect));
  const fx = ((focus?.x ?? 50) / 100) * width;
  const fy = ((focus?.y ?? 50) / 100) * height;
  const clamp = (v: number, max: number) => Math.max(0, Math.min(max, Math.round(v)));
  return { left: clamp(fx - w / 2, width - w), top: clamp(fy - h / 2, height - h), width: w, height: h };
}

/** The uses of each content field that holds a picture (a course's photo is on its card and its page). */
export const FIELD_USES = {
  course: ['courseCard', 'coursePage'],
  teacher: ['teacher'],
  banner: ['banner'],
  homePhoto: ['homePhoto'],
  logo: ['logo'],
} as const satisfies Record<string, readonly ImageUse[]>;

/** Encoder settings: part of every processed file's key, so a change here re-encodes everything once. */
export const ENCODING = {
  // Effort 0: the quality of effort 2 for a fraction of the time; chroma at half resolution (4:2:0, as
  // in every JPEG): the same bytes and quality for less time than 4:4:4 (README: what each format costs).
  avif: { quality: 50, effort: 0, chromaSubsampling: '4:2:0' },
  // Only browsers without AVIF fetch it. mozjpeg's tables without its trellis quantisation and scan
  // search: at quality 74 the quality and bytes of quality 78 with both, for a fifth of the time.
  jpeg: { quality: 74, mozjpeg: true, progressive: true, trellisQuantisation: false, optimiseScans: false },
} as const;

/** A warning above either: a camera's original that should be scaled down before it is committed. */
export const HUGE = { bytes: 15 * 1024 * 1024, pixels: 40_000_000 };

/**
 * An error above either: validate refuses the picture and the build never decodes it (sharp's
 * `limitInputPixels` is the backstop). A 45-megapixel camera original (8256×5504, 25-40 MB) is
 * well inside; a decompression bomb (a 1.5 MB JPEG of 16000×16000 = 256 megapixels, 768 MB once
 * decoded) is not.
 */
export const LIMIT = { pixels: 100_000_000, bytes: 256 * 1024 * 1024 };

/** A picture shown in its own shape (the logo) is at most this many times as wide as high (or high as wide). */
export const MAX_OWN_ASPECT = 4;
