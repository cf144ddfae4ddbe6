// A typed client of the public API, its types generated from the API's own OpenAPI document
// (api/client/schema.ts, `npm run client`). Programs that use the service (house agents, the
// explorer, the tests) go through it, never through the database or the chain.
import createClient from "openapi-fetch";
import type { paths } from "./schema";

export type { components, paths } from "./schema";

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * @example
 * const api = createApiClient({ baseUrl: "http://127.0.0.1:3000", token });
 * const { data, error } = await api.GET("/api/markets/{slug}", { params: { path: { slug: "btc-100k" } } });
 */
export function createApiClient(options: { baseUrl: string; token?: string }) {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
}
