import { writeFileSync } from 'node:fs';
import { seededRandom } from '../seeded-random';

/*
 * A GGUF writer for the tests: a tiny llama-architecture model with random weights and a small
 * SentencePiece vocabulary, so that the real llama.cpp (through node-llama-cpp) can load and run
 * it with no download. Format: GGUF version 3 (header, metadata key–values, tensor infos, then
 * tensor data aligned to 32 bytes), every tensor in F32. What it says is nonsense; what matters is
 * that it is a real model file that streams real tokens.
 */

const GGUF_MAGIC = 0x46554747; // "GGUF", little-endian
const ALIGNMENT = 32;

enum ValueType {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

type MetadataValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: string[] }
  | { type: 'f32s'; value: number[] }
  | { type: 'i32s'; value: number[] };

/** Token types of GGUF's `tokenizer.ggml.token_type`. */
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const BYTE = 6;

export interface TinyModelShape {
  embedding: number;
  layers: number;
  heads: number;
  feedForward: number;
  contextLength: number;
  seed: number;
}

const DEFAULT_SHAPE: TinyModelShape = { embedding: 64, layers: 2, heads: 4, feedForward: 128, contextLength: 2048, seed: 7 };

/** ChatML, which llama.cpp and node-llama-cpp recognise from the template text. */
const CHAT_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** A vocabulary: control tokens, the 256 byte tokens, then letters and a few common pieces. */
function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens: string[] = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
  const types: number[] = [UNKNOWN, CONTROL, CONTROL, CONTROL, CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(BYTE);
  }
  const pieces = [
    '▁',
    ...'abcdefghijklmnopqrstuvwxyzéèàçêô'.split(''),
    ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''),
    ...'0123456789.,;:!?\'"-()'.split(''),
    ...[
      '▁le',
      '▁la',
      '▁les',
      '▁de',
      '▁et',
      '▁un',
      '▁une',
      '▁the',
      '▁and',
      '▁of',
      '▁is',
      '▁est',
      'er',
      'es',
      'on',
      'en',
      're',
      'ou',
      'an',
      'in',
    ],
  ];
  for (const piece of pieces) {
    tokens.push(piece);
    types.push(NORMAL);
  }
  // SentencePiece merges by score: longer pieces first.
  const scores = tokens.map((token, index) => (types[index] === NORMAL ? -1000 + token.length * 10 - index / 1000 : 0));
  return { tokens, scores, types };
}

interface Tensor {
  name: string;
  /** GGML order: the first dimension varies fastest. */
  dims: number[];
  data: Float32Array;
}

function tensors(shape: TinyModelShape, vocab: number, firstPiece: number): Tensor[] {
  const random = seededRandom(shape.seed);
  const normal = (): number => {
    // Box–Muller from the seeded uniform generator.
    const u = Math.max(random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const weights = (dims: number[], scale: number): Tensor['data'] =>
    Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, () => normal() * scale);
  const ones = (size: number) => new Float32Array(size).fill(1);
  const n = shape.embedding;
  const list: Tensor[] = [{ name: 'token_embd.weight', dims: [n, vocab], data: weights([n, vocab], 0.5) }];
  for (let layer = 0; layer < shape.layers; layer++) {
    const block = (name: string, dims: number[], scale = 0.2): Tensor => ({
      name: `blk.${layer}.${name}`,
      dims,
      data: weights(dims, scale),
    });
    list.push(
      { name: `blk.${layer}.attn_norm.weight`, dims: [n], data: ones(n) },
      block('attn_q.weight', [n, n]),
      block('attn_k.weight', [n, n]),
      block('attn_v.weight', [n, n]),
      block('attn_output.weight', [n, n]),
      { name: `blk.${layer}.ffn_norm.weight`, dims: [n], data: ones(n) },
      block('ffn_gate.weight', [n, shape.feedForward]),
      block('ffn_up.weight', [n, shape.feedForward]),
      block('ffn_down.weight', [shape.feedForward, n]),
    );
  }
  // Control and byte tokens get no output weights (a logit of 0 against the letters' spread), so
  // that greedy decoding writes letters and words: readable nonsense rather than broken bytes.
  const output = weights([n, vocab], 1);
  output.fill(0, 0, firstPiece * n);
  list.push({ name: 'output_norm.weight', dims: [n], data: ones(n) }, { name: 'output.weight', dims: [n, vocab], data: output });
  return list;
}

/** Bytes of a GGUF file, written little-endian into growing chunks. */
class GgufBytes {
  private readonly chunks: Buffer[] = [];
  length = 0;

  private push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value);
    this.push(buffer);
  }
  i32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32LE(value);
    this.push(buffer);
  }
  u64(value: number): void {
    const buffer = Buffer.alloc(8);
    buffer.writeBigUInt64LE(BigInt(value));
    this.push(buffer);
  }
  f32(value: number): void {
    const buffer = Buffer.alloc(4);
    buffer.writeFloatLE(value);
    this.push(buffer);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  raw(bytes: Uint8Array): void {
    this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    if (padding > 0) this.push(Buffer.alloc(padding));
  }
  value(entry: MetadataValue): void {
    switch (entry.type) {
      case 'u32':
        this.u32(ValueType.UINT32);
        return this.u32(entry.value);
      case 'f32':
        this.u32(ValueType.FLOAT32);
        return this.f32(entry.value);
      case 'bool':
        this.u32(ValueType.BOOL);
        return this.push(Buffer.from([entry.value ? 1 : 0]));
      case 'string':
        this.u32(ValueType.STRING);
        return this.string(entry.value);
      case 'strings':
        this.u32(ValueType.ARRAY);
        this.u32(ValueType.STRING);
        this.u64(entry.value.length);
        for (const item of entry.value) this.string(item);
        return;
      case 'f32s':
        this.u32(ValueType.ARRAY);
        this.u32(ValueType.FLOAT32);
        this.u64(entry.value.length);
        for (const item of entry.value) this.f32(item);
        return;
      case 'i32s':
        this.u32(ValueType.ARRAY);
        this.u32(ValueType.INT32);
        this.u64(entry.value.length);
        for (const item of entry.value) this.i32(item);
        return;
    }
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** Writes a tiny llama model to `path` and returns its shape and vocabulary size. */
export function writeTinyGguf(
  path: string,
  options: Partial<TinyModelShape> & { name?: string } = {},
): { vocabSize: number; parameters: number } {
  const shape = { ...DEFAULT_SHAPE, ...options };
  const vocab = vocabulary();
  const metadata: [string, MetadataValue][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: options.name ?? 'Agora tiny test model' }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['general.file_type', { type: 'u32', value: 0 }],
    ['llama.context_length', { type: 'u32', value: shape.contextLength }],
    ['llama.embedding_length', { type: 'u32', value: shape.embedding }],
    ['llama.block_count', { type: 'u32', value: shape.layers }],
    ['llama.feed_forward_length', { type: 'u32', value: shape.feedForward }],
    ['llama.attention.head_count', { type: 'u32', value: shape.heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: shape.heads }],
    ['llama.rope.dimension_count', { type: 'u32', value: shape.embedding / shape.heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'u32', value: vocab.tokens.length }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'f32s', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'i32s', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: 4 }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: CHAT_TEMPLATE }],
  ];
  const list = tensors(shape, vocab.tokens.length, vocab.types.indexOf(NORMAL));
  const file = new GgufBytes();
  file.u32(GGUF_MAGIC);
  file.u32(3);
  file.u64(list.length);
  file.u64(metadata.length);
  for (const [key, value] of metadata) {
    file.string(key);
    file.value(value);
  }
  let offset = 0;
  for (const tensor of list) {
    file.string(tensor.name);
    file.u32(tensor.dims.length);
    for (const dim of tensor.dims) file.u64(dim);
    file.u32(0); // GGML_TYPE_F32
    file.u64(offset);
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  file.padTo(ALIGNMENT);
  for (const tensor of list) {
    file.raw(new Uint8Array(tensor.data.buffer));
    file.padTo(ALIGNMENT);
  }
  writeFileSync(path, file.toBuffer());
  return { vocabSize: vocab.tokens.length, parameters: list.reduce((sum, tensor) => sum + tensor.data.length, 0) };
}

/** A catalogue entry (YAML) for a local model file, as the tests and the bench write them. */
export function localModelYaml(
  id: string,
  path: string,
  options: {
    name?: string;
    arch?: 'dense' | 'unknown';
    contextSize?: number;
    parallel?: number;
    temperature?: number;
    maxTokens?: number;
    firstTokenTimeoutMs?: number;
    totalTimeoutMs?: number;
  } = {},
): string {
  return `  - id: ${id}
    name: ${options.name ?? id}
    organisation: Agora tests
    license: Apache 2.0
    open_weights: true
    arch: ${options.arch ?? 'dense'}
    params_b: null
    provider:
      type: llama-cpp
      model_path: ${path}
      context_size: ${options.contextSize ?? 1024}
      parallel: ${options.parallel ?? 1}
      threads: 1
    options:
      temperature: ${options.temperature ?? 0}
      max_output_tokens: ${options.maxTokens ?? 24}
      first_token_timeout_ms: ${options.firstTokenTimeoutMs ?? 20000}
      total_timeout_ms: ${options.totalTimeoutMs ?? 60000}
`;
}
