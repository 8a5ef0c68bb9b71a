import type { Opened } from '../../load/picture-file.ts';
import { HEADER_BYTES, type Header, JPEG_FRAME_WITHIN, readHeader } from '../../load/picture-header.ts';
import type { PathPart, SourceFile } from '../../load/source.ts';
import { problemAt } from '../../load/source.ts';
import { LANGUAGE_NAMES, LOCALES } from '../../locales.ts';
import type { Problem } from '../../report/problem.ts';
import { catalogued, expectedOf, foundOf, hintOf } from '../../report/problem.ts';
import { cropFor, HUGE, type ImageUse, LIMIT, MAX_OWN_ASPECT, USES } from '../../schema/image-uses.ts';
import type { ImageRef } from '../picture-refs.ts';

/** What each use of a picture is called in a message. */
const USE_NAMES = {
  courseCard: 'a course photo',
  coursePage: 'a course photo',
  teacher: 'a teacher portrait',
  banner: 'a banner',
  homePhoto: 'the home page photo',
  logo: 'the logo',
} as const;

/** How validate reaches the pictures' files: the load stage's confined reader and decoder (cli/load/picture-file.ts, picture-decode.ts). */
export interface PictureAccess {
  /** The first `limit` bytes of a picture. */
  open: (file: string, limit: number) => Opened;
  /**
   * Why a picture whose header is fine cannot be decoded (its data cut off or damaged), or
   * undefined when it can; asked once per file, after every header was read (a decoder decodes
   * only pictures it has not seen before). None: pictures are not decoded.
   */
  decode?: (files: string[]) => Map<string, string>;
}

/**
 * Every picture the content names: its alt text in every language (or `decorative: true`), and its
 * file (there, a picture, not too large to decode safely, large enough for each place it is shown
 * once cropped to that place's shape, its data whole, not a camera's huge original). Asks for the
 * first bytes of each file once, however often it is named; this check reads no file itself.
 */
export function checkImages(refs: readonly ImageRef[], access: PictureAccess | ((file: string, limit: number) => Opened)): Problem[] {
  const { open, decode } = typeof access === 'function' ? { open: access, decode: undefined } : access;
  const files = new Map<string, FirstBytes>();
  const problems: Problem[] = [];
  /** The places that name each file whose header is fine (its data is decoded once, below). */
  const toDecode = new Map<string, { source: SourceFile; at: PathPart[] }[]>();
  for (const ref of refs) {
    const { source, path } = ref;
    const value = ref.image.file;
    problems.push(...altProblems(ref));
    let seen = files.get(value);
    if (!seen) {
      seen = readFirstBytes(open, value);
      files.set(value, seen);
    }
    const at = [...path, 'file'];
    const size = pictureSize(ref, seen);
    if ('problem' in size) {
      problems.push(problemAt(source, at, size.problem));
      continue;
    }
    for (const found of sizeProblems(ref, size)) problems.push(problemAt(source, at, found));
    toDecode.set(value, [...(toDecode.get(value) ?? []), { source, at }]);
  }
  if (decode && toDecode.size) problems.push(...undecodable(decode, toDecode));
  return problems;
}

type FirstBytes = { opened: Opened; header?: Header };
type Found = ReturnType<typeof catalogued>;

/**
 * The size of a picture that is there, of a format the site shows and small enough to decode
 * safely; else the one problem that says why not (nothing more is said of that picture).
 */
function pictureSize(ref: ImageRef, { opened, header }: FirstBytes): { problem: Found } | { width: number; height: number; bytes: number } {
  const value = ref.image.file;
  if (!opened.ok) {
    const notFile = opened.why === 'notFile';
    return {
      problem: catalogued(
        'image-missing',
        { value },
        {
          expected: expectedOf('image-missing', 'file', {}),
          ...(notFile ? { variant: 'notFile' as const, hint: hintOf('image-missing', {}, 'notFile') } : { found: foundOf('image-missing', 'none', {}) }),
        },
      ),
    };
  }
  const min = Math.max(...ref.uses.map((u) => USES[u].minWidth));
  if (header && 'other' in header)
    return {
      problem: catalogued(
        'image-unsupported',
        { value },
        {
          variant: header.other,
          hint: hintOf('image-unsupported', { min }, header.other),
          expected: expectedOf('image-unsupported', 'formats', {}),
          found: foundOf('image-unsupported', 'other', { format: header.other.toUpperCase() }),
        },
      ),
    };
  if (!header || !('width' in header)) {
    const broken = header !== undefined;
    return {
      problem: catalogued(
        'image-unsupported',
        { value },
        {
          expected: expectedOf('image-unsupported', 'formats', {}),
          ...(broken && { variant: 'broken' as const, hint: hintOf('image-unsupported', {}, 'broken') }),
        },
      ),
    };
  }
  const { width, height } = header;
  const pixels = width * height;
  if (opened.size > LIMIT.bytes) {
    const limit = LIMIT.bytes / 1024 / 1024;
    return {
      problem: catalogued(
        'image-too-large',
        { value, size: (opened.size / 1024 / 1024).toFixed(0), limit },
        { variant: 'bytes', expected: expectedOf('image-too-large', 'bytes', { limit }) },
      ),
    };
  }
  if (pixels > LIMIT.pixels) {
    const limit = LIMIT.pixels / 1_000_000;
    return {
      problem: catalogued(
        'image-too-large',
        { value, megapixels: Math.round(pixels / 1_000_000), width, height, limit },
        { expected: expectedOf('image-too-large', 'pixels', { limit }) },
      ),
    };
  }
  return { width, height, bytes: opened.size };
}

/** A readable picture too small for a place it is shown, or a camera's huge original. */
function sizeProblems(ref: ImageRef, { width, height, bytes }: { width: number; height: number; bytes: number }): Found[] {
  const found: Found[] = [];
  const small = tooSmall(ref, width, height);
  if (small) found.push(small);
  if (bytes > HUGE.bytes || width * height > HUGE.pixels) {
    const size = `${(bytes / 1024 / 1024).toFixed(1)} MB, ${width}×${height}`;
    found.push(catalogued('image-huge', { value: ref.image.file, size }));
  }
  return found;
}

/** The pictures the decoder could not decode, at every place that names them. */
function undecodable(decode: NonNullable<PictureAccess['decode']>, toDecode: Map<string, { source: SourceFile; at: PathPart[] }[]>): Problem[] {
  const problems: Problem[] = [];
  for (const [file, reason] of decode([...toDecode.keys()]))
    for (const { source, at } of toDecode.get(file) ?? [])
      problems.push(
        problemAt(
          source,
          at,
          catalogued(
            'image-unsupported',
            { value: file, reason },
            { variant: 'undecodable', hint: hintOf('image-unsupported', {}, 'broken'), expected: expectedOf('image-unsupported', 'formats', {}) },
          ),
        ),
      );
  return problems;
}

/** The first bytes of a picture and what they say; a JPEG whose Exif or previews run past them is read further, up to its frame. */
function readFirstBytes(open: PictureAccess['open'], file: string): { opened: Opened; header?: Header } {
  let opened = open(file, HEADER_BYTES);
  let header = opened.ok ? readHeader(opened.bytes) : undefined;
  while (opened.ok && header && 'more' in header) {
    // All of a file that ends before its frame (cut off), or a frame further in than any camera writes it: damaged.
    if (opened.bytes.length >= opened.size || opened.bytes.length >= JPEG_FRAME_WITHIN) return { opened, header: { format: 'jpeg', broken: true } };
    opened = open(file, Math.min(JPEG_FRAME_WITHIN, Math.max(header.more, opened.bytes.length * 2)));
    header = opened.ok ? readHeader(opened.bytes) : undefined;
  }
  return { opened, header };
}

/** Alt texts: in every language unless decorative; a decorative picture with an alt text is said (the text is never read). */
function altProblems({ image, source, path }: ImageRef): Problem[] {
  const value = image.file;
  if (image.decorative) return image.alt ? [problemAt(source, [...path, 'alt'], catalogued('image-alt-decorative', { value }), { key: true })] : [];
  if (!image.alt) return [problemAt(source, path, catalogued('image-alt-missing', { value }), { key: true })];
  return LOCALES.filter((locale) => !image.alt![locale]).map((locale) =>
    problemAt(
      source,
      [...path, 'alt'],
      catalogued(
        'image-alt-missing',
        { value, language: LANGUAGE_NAMES[locale] },
        { variant: 'locale', hint: hintOf('image-alt-missing', { locale }, 'locale') },
      ),
      { key: true },
    ),
  );
}

/**
 * The picture against the place that needs it most: once cropped to each place's shape (around its
 * focal point, as the build crops it), at least as wide as the place needs; a picture shown in its
 * own shape (the logo) not so flat that it would be a line.
 */
function tooSmall(ref: ImageRef, width: number, height: number): Omit<Problem, 'file' | 'line' | 'column' | 'path'> | undefined {
  const value = ref.image.file;
  const size = foundOf('image-too-small', 'size', { width, height });
  for (const use of [...ref.uses].sort((a, b) => USES[b].minWidth - USES[a].minWidth) as ImageUse[]) {
    const spec = USES[use];
    const min = spec.minWidth;
    const crop = cropFor({ width, height }, spec.aspect, ref.image.focus);
    if (width < min)
      return catalogued(
        'image-too-small',
        { value, width, use: USE_NAMES[use], min },
        { expected: expectedOf('image-too-small', 'width', { min }), found: size },
      );
    if (crop.width < min) {
      const shape = shapeOf(spec.aspect!);
      return catalogued(
        'image-too-small',
        { value, width, height, use: USE_NAMES[use], shape, cropWidth: crop.width, cropHeight: crop.height, min },
        {
          variant: 'cropped',
          hint: hintOf('image-too-small', { shape, min }, 'cropped'),
          expected: expectedOf('image-too-small', 'width', { min }),
          found: size,
        },
      );
    }
    const minHeight = Math.ceil(min / MAX_OWN_ASPECT);
    if (!spec.aspect && width / height > MAX_OWN_ASPECT)
      return catalogued(
        'image-too-small',
        { value, width, height, use: USE_NAMES[use], min, shown: Math.round((min * height) / width) },
        { variant: 'flat', hint: hintOf('image-too-small', {}, 'flat'), expected: expectedOf('image-too-small', 'height', { min, minHeight }), found: size },
      );
  }
  return undefined;
}

/** 1.5 → "3:2", 16/9 → "16:9". */
function shapeOf(aspect: number): string {
  for (let h = 1; h <= 16; h++) if (Math.abs(aspect * h - Math.round(aspect * h)) < 1e-6) return `${Math.round(aspect * h)}:${h}`;
  return aspect.toFixed(2);
}
