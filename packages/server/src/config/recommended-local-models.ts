/**
 * The small open instruct models `agora models pull` downloads by default: multilingual, from
 * different makers, each under 2 GB in a 4-bit quantisation (Q4_K_M), runnable on a laptop's CPU.
 * Chosen on 2026-12-01 (docs/local-models.md says why); the facts llama.cpp needs (parameters,
 * architecture, quantisation) are read from each file once downloaded.
 */
export interface RecommendedLocalModel {
  id: string;
  name: string;
  organisation: string;
  license: string;
  license_url: string;
  /** The Hugging Face repository and file of the GGUF. */
  repo: string;
  file: string;
  revision: string;
  /** Approximate download, for the command's plan. */
  approxBytes: number;
  description: string;
  /** Pulled without `--models`. */
  default: boolean;
}

export const RECOMMENDED_LOCAL_MODELS: readonly RecommendedLocalModel[] = [
  {
    id: 'qwen2.5-1.5b-instruct-q4',
    name: 'Qwen2.5 1.5B Instruct',
    organisation: 'Alibaba Qwen',
    license: 'Apache 2.0',
    license_url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct/blob/main/LICENSE',
    repo: 'Qwen/Qwen2.5-1.5B-Instruct-GGUF',
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    revision: 'main',
    approxBytes: 1_120_000_000,
    description:
      'A small multilingual instruct model (29+ languages, French and most European languages among them), run on this server by llama.cpp.',
    default: true,
  },
  {
    id: 'llama-3.2-1b-instruct-q4',
    name: 'Llama 3.2 1B Instruct',
    organisation: 'Meta',
    license: 'Llama 3.2 Community License',
    license_url: 'https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct/blob/main/LICENSE.txt',
    repo: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    revision: 'main',
    approxBytes: 808_000_000,
    description:
      'Meta’s smallest instruct model (English, German, French, Italian, Portuguese, Hindi, Spanish and Thai officially), run on this server by llama.cpp.',
    default: true,
  },
  {
    id: 'gemma-3-1b-it-q4',
    name: 'Gemma 3 1B Instruct',
    organisation: 'Google',
    license: 'Gemma Terms of Use',
    license_url: 'https://ai.google.dev/gemma/terms',
    repo: 'ggml-org/gemma-3-1b-it-GGUF',
    file: 'gemma-3-1b-it-Q4_K_M.gguf',
    revision: 'main',
    approxBytes: 806_000_000,
    description: 'Google’s smallest Gemma 3 instruct model (trained on over 140 languages), run on this server by llama.cpp.',
    default: false,
  },
];
