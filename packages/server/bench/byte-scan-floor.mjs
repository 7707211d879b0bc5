// The ranking bench's floor for reading a vote file: plain Node (no TypeScript loader), read the
// file in 4 MB blocks and find every newline, nothing else. Prints the line count.
import { openSync, readSync } from 'node:fs';

const handle = openSync(process.argv[2], 'r');
const block = Buffer.allocUnsafe(1 << 22);
let lines = 0;
for (;;) {
  const read = readSync(handle, block, 0, block.length, null);
  if (read === 0) break;
  for (let at = block.indexOf(10, 0); at >= 0 && at < read; at = block.indexOf(10, at + 1)) lines++;
}
process.stdout.write(`${lines}\n`);
