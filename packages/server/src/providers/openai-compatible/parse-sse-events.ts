/**
 * Splits a server-sent-events byte stream into the `data:` payloads of its events (the WHATWG
 * rules the arena needs: `data:` lines joined by newlines, a blank line ends an event, comments and
 * other fields ignored). Pure and incremental: feed it text as it arrives.
 */
export class SseDataParser {
  private buffer = '';
  private data: string[] = [];

  /** Adds text and returns the payloads of the events it completed. */
  push(text: string): string[] {
    this.buffer += text;
    const payloads: string[] = [];
    let start = 0;
    for (let newline = this.buffer.indexOf('\n', start); newline >= 0; newline = this.buffer.indexOf('\n', start)) {
      let line = this.buffer.slice(start, newline);
      start = newline + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (this.data.length > 0) payloads.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) {
        this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      }
    }
    this.buffer = this.buffer.slice(start);
    return payloads;
  }
}
