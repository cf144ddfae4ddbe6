// Sizes of a post's fields, in characters (code points). The body's cap is a setting
// (JOURNAL_MAX_LEN), reported with these by GET /api/blog/config.

export const TITLE_MAX = 200;
export const SOURCE_TITLE_MAX = 200;
export const MAX_SOURCES = 20;
export const FEED_LIMIT_MAX = 50;
export const FEED_LIMIT_DEFAULT = 20;

/**
 * The largest request body POST /api/blog accepts: a body at its cap of `maxLen` characters must
 * fit however it is encoded, and JSON may spend up to 12 bytes on one character (an emoji sent as
 * two `\uXXXX` escapes, as encoders that escape non-ASCII do); the other fields fit in the API's
 * usual limit.
 */
export const postRequestBytes = (maxLen: number, usualBytes: number) => maxLen * 12 + usualBytes;
