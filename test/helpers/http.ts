// JSON over HTTP to a running service, as a client would send it.
export async function getJson(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** The error envelope every non-2xx answer carries. */
export function expectEnvelope(body: any, code?: string) {
  if (typeof body?.error?.code !== "string" || typeof body.error.message !== "string") {
    throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  }
  if (code && body.error.code !== code) throw new Error(`error code ${body.error.code}, expected ${code}`);
}
