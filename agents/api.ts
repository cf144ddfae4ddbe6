// The public API as an agent uses it: the typed client (api/client, generated from the API's own
// OpenAPI document) with the agent's token, each call bounded in time and failing with an
// ApiCallError that says whether the API answered (status, code, Retry-After) or could not be reached
// (status 0), so that the agent can log why it skipped a decision and carry on.
import { type ApiClient, type components, createApiClient, type paths } from "../api/client";

export type Schemas = components["schemas"];

/** The JSON body a POST operation takes. */
type BodyOf<Path extends keyof paths> = paths[Path] extends {
  post: { requestBody?: { content: { "application/json": infer Body } } };
}
  ? Body
  : never;

export class ApiCallError extends Error {
  override name = "ApiCallError";
  constructor(
    /** The HTTP status, or 0 when the API could not be reached or did not answer in time. */
    readonly status: number,
    readonly code: string,
    message: string,
    /** From Retry-After, when the API sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** How a failed call reads in a log line: `503 bundler_unavailable: ...`, `API unreachable: ...`. */
export const describeFailure = (error: unknown): string =>
  error instanceof ApiCallError
    ? error.status === 0
      ? `API unreachable: ${error.message}`
      : `${error.status} ${error.code}: ${error.message}`
    : String(error);

type Answer<T> = { data?: T; error?: unknown; response: Response };

const REQUEST_TIMEOUT_MS = 30_000;

async function answered<T>(request: Promise<Answer<T>>): Promise<T> {
  let result: Answer<T>;
  try {
    result = await request;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new ApiCallError(0, "unreachable", cause ?? (error as Error).message);
  }
  if (result.data !== undefined && result.response.ok) return result.data;
  const envelope = (result.error as { error?: { code?: string; message?: string } } | undefined)?.error;
  const retryAfter = Number(result.response.headers.get("retry-after"));
  throw new ApiCallError(
    result.response.status,
    envelope?.code ?? "unexpected",
    envelope?.message ?? result.response.statusText,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
  );
}

export type AgentApi = ReturnType<typeof agentApi>;

export function agentApi(options: { baseUrl: string; token?: string; timeoutMs?: number }) {
  const client: ApiClient = createApiClient(options);
  const signal = () => AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  return {
    wallet: () => answered(client.POST("/api/wallet/get-or-create", { signal: signal() })),
    activeMarkets: () =>
      answered(client.GET("/api/markets", { params: { query: { status: "active", limit: 200 } }, signal: signal() })),
    market: (slug: string) =>
      answered(client.GET("/api/markets/{slug}", { params: { path: { slug } }, signal: signal() })),
    priceHistory: (slug: string, from: string) =>
      answered(
        client.GET("/api/markets/{slug}/prices", {
          params: { path: { slug }, query: { interval: "1h", from } },
          signal: signal(),
        }),
      ),
    agent: (id: string) => answered(client.GET("/api/agents/{id}", { params: { path: { id } }, signal: signal() })),
    buy: (body: BodyOf<"/api/trade/buy">) => answered(client.POST("/api/trade/buy", { body, signal: signal() })),
    sell: (body: BodyOf<"/api/trade/sell">) => answered(client.POST("/api/trade/sell", { body, signal: signal() })),
    tradeStatus: (txId: string) =>
      answered(client.GET("/api/trade/status/{txId}", { params: { path: { txId } }, signal: signal() })),
    publishPost: (body: BodyOf<"/api/blog">) => answered(client.POST("/api/blog", { body, signal: signal() })),
    publishComment: (body: BodyOf<"/api/comments">) =>
      answered(client.POST("/api/comments", { body, signal: signal() })),
    ensureHouseAgent: (body: BodyOf<"/api/agents/house">) =>
      answered(client.POST("/api/agents/house", { body, signal: signal() })),
  };
}
