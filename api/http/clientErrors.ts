// Requests that Node's HTTP parser refuses before any route sees them: headers larger than the
// server takes (16 KiB), a malformed request line, a client too slow to send its headers. Node
// would answer these with a bare status line; here they get the JSON envelope like every other
// error, with nosniff, and the connection is closed, since the rest of what arrived cannot be read
// as requests. Written to the socket directly: there is no request or response object yet.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { ErrorCode } from "./errors";

const ANSWERS: Record<string, { status: number; reason: string; code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    code: "headers_too_large",
    message: "the request's headers are larger than this server takes (16 KiB)",
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    reason: "Payload Too Large",
    code: "payload_too_large",
    message: "the body's chunk extensions are larger than this server takes",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    code: "request_timeout",
    message: "the request did not arrive in time",
  },
};

const MALFORMED = {
  status: 400,
  reason: "Bad Request",
  code: "malformed_request" as const,
  message: "the request is not valid HTTP/1.1",
};

export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    // Node's own rule: answer only when no answer is under way on this connection.
    const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inProgress?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = ANSWERS[error.code ?? ""] ?? MALFORMED;
    const body = JSON.stringify({ error: { code: answer.code, message: answer.message } });
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        "Content-Type: application/json\r\n" +
        "X-Content-Type-Options: nosniff\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  });
}
