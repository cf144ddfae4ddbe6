// The public API through its typed client (api/client, generated from the OpenAPI document), as the
// signed-in user when there is one. Failures become ApiFailure with the envelope's code and message.
import { type ApiClient, createApiClient } from "../../api/client";
import { session } from "./session";

let client: ApiClient | undefined;
let clientToken: string | undefined;

/** The client for the current session; a new one whenever the session's token changes. */
export function api(): ApiClient {
  const token = session.token();
  if (!client || token !== clientToken) {
    client = createApiClient({ baseUrl: location.origin, token });
    clientToken = token;
  }
  return client;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's data, or an ApiFailure saying what the API said. */
export async function read<T>(request: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (data !== undefined && response.ok) return data;
  const envelope = (error as { error?: { code?: string; message?: string } } | undefined)?.error;
  throw new ApiFailure(
    response.status,
    envelope?.code ?? "http_error",
    envelope?.message ?? `the API answered ${response.status} ${response.statusText}`,
  );
}
