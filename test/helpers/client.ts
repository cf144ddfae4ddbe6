// The one HTTP client of the stack tests: the typed client of the public API (`api`), and `call`
// for what a typed client cannot send — bad bodies, odd headers, other users' tokens — answering
// status, headers and the parsed body.
import { createApiClient } from "../../api/client";

export type CallOptions = {
  /** Sent as JSON unless it is a string, which is sent as it is. */
  body?: unknown;
  /** A bearer token; `null` sends none even when the client has one. */
  token?: string | null;
  headers?: Record<string, string>;
};

export type CallResult = { status: number; headers: Headers; body: any };

/** `token` is the default bearer: a string, or a function read at each call (for tests that switch users). */
export function testClient(baseUrl: string, token?: string | (() => string | undefined)) {
  const defaultToken = () => (typeof token === "function" ? token() : token);
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<CallResult> => {
    const bearer = options.token === null ? undefined : (options.token ?? defaultToken());
    const headers: Record<string, string> = {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers,
    };
    const body =
      options.body === undefined || typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed };
  };
  return {
    /** The typed client, with the default token as it is now. */
    get api() {
      return createApiClient({ baseUrl, token: defaultToken() });
    },
    call,
    /** The same client acting as another user. */
    as: (otherToken: string) => testClient(baseUrl, otherToken),
  };
}
