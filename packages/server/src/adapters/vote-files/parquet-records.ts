import { gunzipSync, brotliDecompressSync, unzipSync } from 'node:zlib';
import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  parquetSchema,
  type Compressors,
  type FileMetaData,
} from 'hyparquet';
import { compressors as allCodecs } from 'hyparquet-compressors';
import { VoteFileError } from './vote-file-error';

/**
 * Every codec compar:IA and Hugging Face files use: ZSTD, LZ4 and LZ4_RAW from hyparquet's own
 * codec package (fzstd and a JS LZ4); GZIP and Brotli through Node's native zlib, which is faster.
 */
const COMPRESSORS: Compressors = {
  ...allCodecs,
  GZIP: (input) => {
    try {
      return gunzipSync(input);
    } catch {
      return unzipSync(input);
    }
  },
  BROTLI: (input) => brotliDecompressSync(input),
};

/** LZO is the one codec no JS decoder reads (no writer in use today produces it). */
const SUPPORTED_CODECS = new Set(['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4', 'LZ4_RAW']);

/** An opened Parquet file: its top-level column names and a row-group iterator. */
export interface ParquetFile {
  columns: string[];
  rowCount: number;
  /** Reads the given columns, one row group at a time (memory stays bounded by a row group). */
  rows(columns: readonly string[]): AsyncGenerator<Record<string, unknown>[]>;
}

/** Opens a Parquet file with the pure-JS hyparquet reader, in any codec but LZO (refused with a clear message). */
export async function openParquetFile(path: string): Promise<ParquetFile> {
  const file = await asyncBufferFromFile(path);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (error) {
    throw new VoteFileError(path, undefined, `not a readable Parquet file (${(error as Error).message})`);
  }
  const columns = parquetSchema(metadata).children.map((child) => child.element.name);
  return {
    columns,
    rowCount: Number(metadata.num_rows),
    async *rows(wanted) {
      const selected = columns.filter((column) => wanted.includes(column));
      assertCodecs(path, metadata, selected);
      let rowStart = 0;
      for (const group of metadata.row_groups) {
        const rowEnd = rowStart + Number(group.num_rows);
        yield (await parquetReadObjects({
          file,
          metadata,
          columns: selected,
          rowStart,
          rowEnd,
          compressors: COMPRESSORS,
        })) as Record<string, unknown>[];
        rowStart = rowEnd;
      }
    },
  };
}

function assertCodecs(path: string, metadata: FileMetaData, columns: readonly string[]): void {
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (!meta || !columns.includes(meta.path_in_schema[0] ?? '')) continue;
      if (!SUPPORTED_CODECS.has(meta.codec)) {
        throw new VoteFileError(
          path,
          undefined,
          `Parquet column ${meta.path_in_schema.join('.')} is ${meta.codec}-compressed, which no reader here decodes (convert the file, e.g. to ZSTD Parquet or JSONL)`,
        );
      }
    }
  }
}
