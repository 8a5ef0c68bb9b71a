// The pattern of a picture's file name, without the schemas (zod): validate's explanations read it on every run.

/** A file of content/images/: a relative path of lowercase names, ending in a format the build encodes from. */
export const IMAGE_FILE_PATTERN = '^(?:[a-z0-9][a-z0-9_-]*\\/)*[a-z0-9][a-z0-9._-]*\\.(?:jpe?g|png|webp|avif)$';
