/** Pieces of a Hugging Face dataset card's YAML header, shared by every card the project writes. */

/** Hugging Face's size category of a dataset of `rows` rows. */
export function sizeCategory(rows: number): string {
  const bounds: [number, string][] = [
    [1_000, 'n<1K'],
    [10_000, '1K<n<10K'],
    [100_000, '10K<n<100K'],
    [1_000_000, '100K<n<1M'],
    [10_000_000, '1M<n<10M'],
    [100_000_000, '10M<n<100M'],
  ];
  return bounds.find(([bound]) => rows < bound)?.[1] ?? 'n>1T';
}

/** A YAML scalar that any text survives: JSON's string syntax is YAML's double-quoted one. */
export const yamlString = (text: string): string => JSON.stringify(text);

/** One entry of `configs:` with a single `train` split; the default config is what `load_dataset(repo, split="train")` reads. */
export const configEntry = (name: string, path: string, isDefault = false): string =>
  `- config_name: ${name}\n${isDefault ? '  default: true\n' : ''}  data_files:\n  - split: train\n    path: ${yamlString(path)}`;

/** `dataset_info:` with the row count of each config's `train` split (what the Hub shows before loading). */
export function datasetInfo(configs: readonly { name: string; rows: number }[]): string[] {
  return [
    'dataset_info:',
    ...configs.flatMap((config) => [`- config_name: ${config.name}`, '  splits:', '  - name: train', `    num_examples: ${config.rows}`]),
  ];
}
