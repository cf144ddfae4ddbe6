// Server-Sent Events frames out of a stream's text as it arrives in arbitrary pieces
// (https://html.spec.whatwg.org/multipage/server-sent-events.html): a frame ends at a blank line;
// `data:` lines join with "\n"; comment lines (`: ping`) and frames without a field are skipped.

export type SseFrame = { id?: string; event?: string; data?: string; retry?: number };

export class SseReader {
  private pending = "";

  /** The frames this piece of text completes. */
  push(text: string): SseFrame[] {
    this.pending += text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
    const frames: SseFrame[] = [];
    let end = this.pending.indexOf("\n\n");
    while (end !== -1) {
      const frame = parseFrame(this.pending.slice(0, end));
      if (frame) frames.push(frame);
      this.pending = this.pending.slice(end + 2);
      end = this.pending.indexOf("\n\n");
    }
    return frames;
  }
}

function parseFrame(text: string): SseFrame | undefined {
  const frame: SseFrame = {};
  let fields = 0;
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(line[colon + 1] === " " ? colon + 2 : colon + 1);
    fields += 1;
    if (name === "id") frame.id = value;
    else if (name === "event") frame.event = value;
    else if (name === "data") frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    else if (name === "retry" && /^\d+$/.test(value)) frame.retry = Number(value);
  }
  return fields > 0 ? frame : undefined;
}
