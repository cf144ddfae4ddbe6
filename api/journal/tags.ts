// Tags are lowercase slugs, as market slugs are, so that `?tag=` matches what was sent exactly;
// an uppercase or duplicate tag is refused rather than silently changed.

export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 40;
export const TAG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The first tag that appears twice, if any. */
export function duplicateTag(tags: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const tag of tags) {
    if (seen.has(tag)) return tag;
    seen.add(tag);
  }
  return undefined;
}
