// A post's sources name their site: `source` is the host of the URL, without a leading `www.`.

export function sourceHost(url: string): string {
  const host = new URL(url).hostname.toLowerCase();
  return host.startsWith("www.") ? host.slice(4) : host;
}
