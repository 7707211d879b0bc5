import { STRONG_PANEL_SIZE } from './maxx-rules';

/** The card's fixed text: the rules the set was made by, and how to load it. Kept beside the rules they state. */

export function maxxRulesSection(): string[] {
  return [
    '## Rules',
    '',
    '- Each judge reads a pair in both orders (the optimal reply shown first, then second), writes its reasons before its verdict, and sees both replies with formatting removed (headings, emphasis, lists, tables, links and HTML reduced to plain text). A judge wins the pair for the optimal reply only when it prefers it in both orders; orders that contradict each other are position-inconsistent and count as no win.',
    `- The panel wins a pair when every judge wins it (unanimous), or when more than half of the judges win it and none prefers the original in both orders (majority). Anything else drops the row: \`split panel\` when some judge won, \`inconsistent\` or \`lost\` otherwise.`,
    `- Arena rows are kept only when the panel wins against every original reply. \`rejected\` is the original won less firmly (majority before unanimous, then fewer verdicts for the optimal), \`rejected_2\` the other. Strength: \`strong\` when at least ${STRONG_PANEL_SIZE} judges were unanimous on \`rejected\`; \`medium\` for one judge alone or a majority. A judge's stated confidence is not used.`,
    "- Reactions rows: the generator is shown the disliked answer with the visitor's tags and comment and writes a reply that fixes the defect; the critic must say it is fixed, and the panel must win against the disliked answer. Strength: `strong` for a valid complaint, `medium` for a partly valid one (or a valid one with a majority panel), `weak` for a mistaken one.",
    '- Both-bad votes make `arena-both_bad` only; every other vote makes `arena-general`.',
    '- Items dropped because a provider answered badly (not the JSON asked for, or cut) are taken up again by the next run; drops about the content (lost, split panel, critic rejected, defect not fixed) stay.',
    '',
  ];
}

export function maxxUsageSection(configs: readonly string[]): string[] {
  return [
    '## Load it',
    '',
    `Configs: ${configs.map((name) => `\`${name}\``).join(', ')}. The \`default\` config holds every row.`,
    '',
    '```python',
    'from datasets import load_dataset',
    'ds = load_dataset("PATH_OR_REPO", split="train")                      # every row',
    '# ds = load_dataset("PATH_OR_REPO", "arena-general", split="train")  # one subset; "lang-fr": one language',
    'pref = ds.filter(lambda r: r["rejected"] is not None and r["training_use"] != "evaluation_only").map(',
    '    lambda r: {"prompt": r["messages"], "chosen": [{"role": "assistant", "content": r["response_optimal"]}],',
    '               "rejected": [{"role": "assistant", "content": r["rejected"]}]}, remove_columns=ds.column_names)',
    '# TRL: DPOTrainer(model, args, train_dataset=pref, ...)',
    '```',
    '',
    "DuckDB: `SELECT * FROM read_parquet('*/*/train-*.parquet')`.",
    '',
    '`response_optimal` is plain text and `rejected` keeps the formatting its model gave it: the judges compared them with formatting removed, but a DPO run on these columns also learns "plain beats formatted". For a style-neutral pair, use `response_optimal_styled` as chosen, or remove formatting from both sides.',
    '',
    'Replies are model-generated and judged by models: LLM-judge preferences approximate human ones without equalling them.',
    '',
  ];
}
