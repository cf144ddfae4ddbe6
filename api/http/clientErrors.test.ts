import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientErrors } from "./clientErrors";

/** Sends `request` as raw bytes and reads the connection until the server closes it. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

const parse = (answer: string) => {
  const [head, body] = answer.split("\r\n\r\n");
  return { statusLine: head!.split("\r\n")[0], head: head!.toLowerCase(), body: JSON.parse(body!) };
};

describe("answerClientErrors", () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_, res) => res.end("ok"));
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers headers over 16 KiB with a 431 in the envelope, nosniff, and closes", async () => {
    const answer = parse(await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`));
    expect(answer.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(answer.head).toContain("content-type: application/json");
    expect(answer.head).toContain("x-content-type-options: nosniff");
    expect(answer.head).toContain("connection: close");
    expect(answer.body).toEqual({ error: { code: "headers_too_large", message: expect.stringContaining("16 KiB") } });
  });

  it("answers a request that is not HTTP with a 400 in the envelope", async () => {
    const answer = parse(await exchange(port, "NOT HTTP AT ALL\r\n\r\n"));
    expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect(answer.body.error.code).toBe("malformed_request");
  });

  it("leaves good requests alone", async () => {
    const answer = await exchange(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer.endsWith("ok")).toBe(true);
  });
});
