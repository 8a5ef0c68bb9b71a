import type { PathPart, SourceFile } from '../load/source.ts';
import type { Image } from '../schema/image.ts';
import { FIELD_USES, type ImageUse } from '../schema/image-uses.ts';
import type { Content } from './content.ts';

/** One place in the content that names a picture. */
export interface ImageRef {
  image: Image;
  uses: readonly ImageUse[];
  source: SourceFile;
  path: PathPart[];
}

/** Every picture the content names, in a stable order (site, banners, courses and teachers by key). */
export function imageRefs(content: Content): ImageRef[] {
  const refs: ImageRef[] = [];
  const site = content.site;
  if (site?.data.logo) refs.push({ image: site.data.logo, uses: FIELD_USES.logo, source: site.source, path: ['logo'] });
  if (site?.data.homePhoto) refs.push({ image: site.data.homePhoto, uses: FIELD_USES.homePhoto, source: site.source, path: ['homePhoto'] });
  const banners = content.banners;
  banners?.data.banners.forEach((b, i) => {
    if (b.image) refs.push({ image: b.image, uses: FIELD_USES.banner, source: banners.source, path: ['banners', i, 'image'] });
  });
  for (const key of [...content.courses.keys()].sort()) {
    const c = content.courses.get(key)!;
    if (c.data.image) refs.push({ image: c.data.image, uses: FIELD_USES.course, source: c.source, path: ['image'] });
  }
  for (const key of [...content.teachers.keys()].sort()) {
    const t = content.teachers.get(key)!;
    if (t.data.image) refs.push({ image: t.data.image, uses: FIELD_USES.teacher, source: t.source, path: ['image'] });
  }
  return refs;
}
