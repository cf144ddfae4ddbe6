// Random HTTP requests for every operation of an OpenAPI document (fast-check arbitraries): path
// segments, query strings, headers, content types and bodies, from valid-looking (built from the
// operation's own schemas and the names a test knows) to hostile (NUL, unpaired bytes, huge
// strings, bodies that are not JSON, wrong types). Nothing here names a route: a new operation in
// the document is covered as it appears.
import fc from "fast-check";

export type Operation = {
  method: string;
  path: string;
  operationId: string;
  parameters: { name: string; in: "path" | "query" | "header"; schema: Schema }[];
  body?: Schema;
  /** Media types of the documented responses, by status. */
  responses: Record<string, string[]>;
};

export type RandomRequest = {
  operation: Operation;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
};

/** What the test knows of the stack: names that make a request valid-looking. */
export type Vocabulary = {
  slugs: string[];
  outcomes: string[];
  tokens: string[];
};

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  example?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  default?: unknown;
};

const METHODS = ["get", "post", "put", "patch", "delete"];

export function operationsOf(document: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        parameters: (operation.parameters ?? []).map((parameter: any) => ({
          name: parameter.name,
          in: parameter.in,
          schema: parameter.schema ?? {},
        })),
        body: bodySchema && resolve(document, bodySchema),
        responses: Object.fromEntries(
          Object.entries<any>(operation.responses).map(([status, response]) => [
            status,
            Object.keys(response.content ?? {}),
          ]),
        ),
      });
    }
  }
  return operations;
}

/** Inlines $refs, so that the generators below read a plain tree. */
function resolve(document: any, schema: Schema): Schema {
  if (schema.$ref) return resolve(document, document.components.schemas[schema.$ref.split("/").pop()!]);
  const copy: Schema = { ...schema };
  if (schema.properties)
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, inner]) => [name, resolve(document, inner)]),
    );
  if (schema.items) copy.items = resolve(document, schema.items);
  if (schema.anyOf) copy.anyOf = schema.anyOf.map((inner) => resolve(document, inner));
  if (schema.oneOf) copy.oneOf = schema.oneOf.map((inner) => resolve(document, inner));
  return copy;
}

// Hostile values -------------------------------------------------------------------------------

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 40, unit: "binary" }),
  fc.string({ maxLength: 20, unit: "binary-ascii" }),
  fc.constantFrom("", "\u0000", "a\u0000b", "../../etc/passwd", "' OR 1=1 --", "%00", "😀", "\uFEFF", "null"),
  fc.string({ minLength: 300, maxLength: 3000, unit: "grapheme" }),
);

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A path segment as raw bytes, percent-encoded: any byte, valid UTF-8 or not. */
const encodedBytes = fc
  .uint8Array({ minLength: 0, maxLength: 30 })
  .map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join(""));

const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, "?"));
  }
};

// Valid-looking values from a schema ----------------------------------------------------------

function valueFor(name: string, schema: Schema, words: Vocabulary, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((variant) => valueFor(name, variant, words, depth)));
  if (/slug/i.test(name) && words.slugs.length) return fc.constantFrom(...words.slugs);
  if (/^outcome$/i.test(name) && words.outcomes.length) return fc.constantFrom(...words.outcomes);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object":
      if (depth > 3) return fc.constant({});
      return fc.record(
        Object.fromEntries(
          Object.entries(schema.properties ?? {}).map(([key, inner]) => [key, valueFor(key, inner, words, depth + 1)]),
        ),
        { requiredKeys: schema.required ?? [] },
      );
    case "array":
      return fc.array(valueFor(name, schema.items ?? {}, words, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 10),
      });
    case "integer":
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 }),
        fc.integer(),
        fc.constant(0),
      );
    case "number":
      return fc.oneof(
        fc.constantFrom(1, 10, 0.5, 0.99, 1000, 0.000001, 0.0000001),
        fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true }),
        fc.double({ noNaN: true }),
      );
    case "boolean":
      return fc.boolean();
    case "string":
      if (schema.format === "date-time") {
        const now = Date.now();
        const day = 86_400_000;
        return fc
          .oneof(
            fc.date({ min: new Date(now - 60 * day), max: new Date(now + 60 * day), noInvalidDate: true }),
            fc.date({ min: new Date("1970-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
          )
          .map((date) => date.toISOString());
      }
      return fc.oneof(
        ...(schema.example === undefined ? [] : [fc.constant(schema.example)]),
        schema.pattern
          ? fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? 200))
          : fc.string({ minLength: 1, maxLength: Math.min(schema.maxLength ?? 30, 30) }),
      );
    default:
      return anyJson;
  }
}

/** Valid-looking most of the time, otherwise a wrong type, a hostile string or nothing. */
const loosely = (name: string, schema: Schema, words: Vocabulary) =>
  fc.oneof(
    { weight: 8, arbitrary: valueFor(name, schema, words) },
    { weight: 2, arbitrary: hostileString },
    { weight: 1, arbitrary: anyJson },
  );

// Requests -------------------------------------------------------------------------------------

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/merge-patch+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/xml",
  "multipart/form-data; boundary=xyz",
  "application/json; charset",
  "",
];

/** Bodies that are not JSON at all, as the issue found them and worse. */
const NOT_JSON = [
  "marketSlug=x&outcome=Yes&amount=1",
  "<buy><amount>1</amount></buy>",
  '{"a":1,}',
  "{'marketSlug':'x'}",
  '{"amount":Infinity}',
  '{"amount":NaN}',
  '{"a":',
  "undefined",
  "\u0000",
  "\uFEFF{}",
];

function bodyFor(operation: Operation, words: Vocabulary): fc.Arbitrary<string | undefined> {
  const valid = operation.body ? valueFor("body", operation.body, words) : fc.constant({});
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: operation.body ? 8 : 1, arbitrary: valid.map((value) => JSON.stringify(value)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.string({ maxLength: 12 }), loosely("", {}, words))
        .map(([value, key, extra]) =>
          JSON.stringify(typeof value === "object" && value !== null ? { ...value, [key]: extra } : extra),
        ),
    },
    { weight: 1, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...NOT_JSON), fc.string({ maxLength: 60, unit: "binary" })) },
    // Past the 64 KiB limit.
    {
      weight: 1,
      arbitrary: fc.integer({ min: 65 * 1024, max: 200 * 1024 }).map((size) => `{"a":"${"x".repeat(size)}"}`),
    },
  );
}

function pathFor(operation: Operation, words: Vocabulary): fc.Arbitrary<string> {
  const names = operation.parameters.filter((p) => p.in === "path");
  if (names.length === 0) return fc.constant(operation.path);
  return fc
    .tuple(
      ...names.map((parameter) =>
        fc.oneof(
          { weight: 6, arbitrary: valueFor(parameter.name, parameter.schema, words).map((v) => encode(String(v))) },
          { weight: 2, arbitrary: hostileString.map(encode) },
          { weight: 2, arbitrary: encodedBytes },
        ),
      ),
    )
    .map((values) =>
      names.reduce((path, parameter, index) => path.replace(`{${parameter.name}}`, values[index]!), operation.path),
    );
}

function queryFor(operation: Operation, words: Vocabulary): fc.Arbitrary<string> {
  const documented = operation.parameters.filter((p) => p.in === "query");
  const pairs = fc.tuple(
    ...documented.map((parameter) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        {
          weight: 4,
          arbitrary: loosely(parameter.name, parameter.schema, words).map((value) => [parameter.name, value] as const),
        },
      ),
    ),
    fc.array(fc.tuple(hostileString, hostileString), { maxLength: 2 }),
  );
  return pairs.map((all) => {
    // Generated values are replayed while shrinking: read them, never change them.
    const extra = all[all.length - 1] as [string, string][];
    const chosen = (all.slice(0, -1) as ([string, unknown] | undefined)[]).filter((pair) => pair !== undefined);
    const parts = [...chosen, ...extra].map(
      ([key, value]) => `${encode(key)}=${encode(typeof value === "string" ? value : (JSON.stringify(value) ?? ""))}`,
    );
    return parts.length ? `?${parts.join("&")}` : "";
  });
}

function headersFor(operation: Operation, words: Vocabulary): fc.Arbitrary<Record<string, string>> {
  const documented = operation.parameters.filter((p) => p.in === "header");
  const printable = fc.string({ maxLength: 60 });
  return fc
    .record({
      authorization: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...words.tokens).map((token) => `Bearer ${token}`) },
        { weight: 1, arbitrary: printable.map((text) => `Bearer ${text}`) },
        { weight: 1, arbitrary: printable },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      "content-type": fc.oneof(
        { weight: 8, arbitrary: fc.constant("application/json") },
        { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        { weight: 1, arbitrary: printable },
        { weight: 2, arbitrary: fc.constant(undefined) },
      ),
      accept: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constantFrom("*/*", "application/json", "text/event-stream", "text/html") },
        { weight: 1, arbitrary: printable },
      ),
      "idempotency-key": fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: printable },
      ),
      documented: fc.tuple(
        ...documented.map((parameter) =>
          fc.option(
            fc.oneof(valueFor(parameter.name, parameter.schema, words).map(String), fc.nat().map(String), printable),
            { nil: undefined },
          ),
        ),
      ),
    })
    .map(({ documented: values, ...headers }) => {
      const all: Record<string, string | undefined> = { ...headers };
      documented.forEach((parameter, index) => {
        all[parameter.name] = values[index];
      });
      // fetch refuses header values with control characters or characters beyond Latin-1.
      return Object.fromEntries(
        Object.entries(all).filter(
          (entry): entry is [string, string] => entry[1] !== undefined && /^[\t\x20-\x7e\x80-\xff]*$/.test(entry[1]),
        ),
      );
    });
}

export function randomRequest(operations: Operation[], words: Vocabulary): fc.Arbitrary<RandomRequest> {
  return fc.constantFrom(...operations).chain((operation) =>
    fc
      .record({
        path: pathFor(operation, words),
        query: queryFor(operation, words),
        headers: headersFor(operation, words),
        body: operation.method === "GET" ? fc.constant(undefined) : bodyFor(operation, words),
      })
      .map(({ path, query, headers, body }) => {
        // Node's HTTP parser answers a request head over 16 KiB itself (431), before the API sees it.
        const url = `${path}${query}`.slice(0, 8_000);
        return { operation, url, method: operation.method, headers, body };
      }),
  );
}
