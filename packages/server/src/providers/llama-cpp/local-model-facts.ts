import { GgufFileType, readGgufFileInfo } from 'node-llama-cpp';

/** What a GGUF file says of its model: the facts the reveal and the impact estimate need. */
export interface LocalModelFacts {
  /** Parameters, in billions, counted from the tensors themselves. */
  paramsB: number;
  /** llama.cpp's name of the file's quantisation (`Q4_K_M`, `F16`…), when the file says. */
  quantization: string | undefined;
  /** `moe` when the architecture has experts. */
  arch: 'dense' | 'moe';
  /** The model's own name (`general.name`), when the file says. */
  name: string | undefined;
}

/** Reads the header of a GGUF file (metadata and tensor shapes, not the weights). */
export async function readLocalModelFacts(path: string): Promise<LocalModelFacts> {
  const info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false });
  let parameters = 0;
  for (const tensor of info.fullTensorInfo ?? info.tensorInfo ?? [])
    parameters += tensor.dimensions.reduce<number>((product, size) => product * Number(size), 1);
  const general = info.metadata.general as { file_type?: number; name?: string } | undefined;
  const fileType = general?.file_type === undefined ? undefined : GgufFileType[general.file_type];
  const architecture = info.architectureMetadata as { expert_count?: number } | undefined;
  return {
    paramsB: Number((parameters / 1e9).toPrecision(4)),
    quantization: fileType?.replace(/^(MOSTLY|ALL)_/, ''),
    arch: (architecture?.expert_count ?? 0) > 0 ? 'moe' : 'dense',
    name: general?.name,
  };
}
