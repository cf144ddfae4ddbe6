import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env";

export const OPENAPI_PATH = "/openapi/api.json";

const SpecIndex = z
  .object({
    specs: z.array(
      z.object({
        name: z.string(),
        title: z.string(),
        openapi: z.string(),
        url: z.string().openapi({ example: OPENAPI_PATH }),
      }),
    ),
  })
  .openapi("SpecIndex");

const indexRoute = createRoute({
  method: "get",
  path: "/openapi/index.json",
  operationId: "listSpecifications",
  security: [],
  tags: ["Discovery"],
  summary: "The machine-readable specifications this service publishes",
  responses: {
    200: { description: "the list of specifications", content: { "application/json": { schema: SpecIndex } } },
  },
});

export const openapiIndexRoutes = new OpenAPIHono<AppEnv>().openapi(indexRoute, (c) =>
  c.json({ specs: [{ name: "api", title: "Prediction market API", openapi: "3.1.0", url: OPENAPI_PATH }] }, 200),
);
