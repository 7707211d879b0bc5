// Writes the small Parquet fixtures of the vote-file tests. hyparquet-writer is not a dependency
// of the project; run it from a scratch folder where it is installed:
//   npm i -E hyparquet-writer@0.17.0 && node make-parquet-fixtures.mjs <this folder>
import { parquetWriteFile } from 'hyparquet-writer';

const out = process.argv[2] ?? '.';

parquetWriteFile({
  filename: `${out}/comparia-votes.parquet`,
  columnData: [
    { name: 'conversation_pair_id', data: ['p1', 'p2', 'p3', 'p1', 'p4', 'p5', 'p6', 'p7'], type: 'STRING' },
    { name: 'model_a_name', data: ['alpha', 'beta', 'gamma', 'alpha', 'alpha', 'beta', 'alpha', 'gamma'], type: 'STRING' },
    { name: 'model_b_name', data: ['beta', 'gamma', 'alpha', 'beta', 'gamma', 'alpha', 'beta', 'beta'], type: 'STRING' },
    { name: 'chosen_model_name', data: ['alpha', 'gamma', null, 'beta', null, null, 'beta', 'beta'], type: 'STRING' },
    { name: 'both_equal', data: [false, false, true, false, null, false, false, false], type: 'BOOLEAN' },
    { name: 'both_bad', data: [false, false, false, false, false, true, false, false], type: 'BOOLEAN' },
    { name: 'categories', data: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], type: 'STRING' },
  ],
});

parquetWriteFile({
  filename: `${out}/agora-votes.parquet`,
  columnData: [
    { name: 'model_a', data: ['alpha', 'beta', 'gamma', 'alpha'], type: 'STRING' },
    { name: 'model_b', data: ['beta', 'gamma', 'alpha', 'alpha'], type: 'STRING' },
    { name: 'winner', data: ['model_a', 'tie', 'both_bad', 'model_b'], type: 'STRING' },
    { name: 'len_a', data: [120n, 80n, 300n, 5n], type: 'INT64' },
    { name: 'len_b', data: [100n, 90n, 10n, 5n], type: 'INT64' },
    { name: 'headers_a', data: [1, 0, 2, 0], type: 'INT32' },
    { name: 'headers_b', data: [0, 0, 1, 0], type: 'INT32' },
    { name: 'lists_a', data: [3, 0, 0, 0], type: 'INT32' },
    { name: 'lists_b', data: [1, 2, 0, 0], type: 'INT32' },
    { name: 'bold_a', data: [0, 1, 0, 0], type: 'INT32' },
    { name: 'bold_b', data: [0, 0, 4, 0], type: 'INT32' },
  ],
});
