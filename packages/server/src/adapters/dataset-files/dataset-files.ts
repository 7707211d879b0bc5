/** The files of an export once written: their rows counted back, their cards written beside them. */
import { createReadStream, writeFileSync } from 'node:fs';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';

/** Rows of a written dataset file, read back from the file itself (Parquet footer, JSONL lines). */
export async function countFileRows(path: string): Promise<number> {
  if (path.endsWith('.parquet')) {
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
    return Number(metadata.num_rows);
  }
  let lines = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    for (let index = bytes.indexOf(10); index !== -1; index = bytes.indexOf(10, index + 1)) lines++;
  }
  return lines;
}

/** Writes a tier's card (its README.md, YAML header first) where Hugging Face reads it. */
export function writeDatasetCard(path: string, card: string): void {
  writeFileSync(path, card);
}
