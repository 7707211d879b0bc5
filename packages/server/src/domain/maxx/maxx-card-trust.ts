import { type CalibrationRecord, agreementOf, onePerPair } from './maxx-calibration';
import type { MaxxItemRecord } from './maxx-outcome';
import { type PeopleVerdict, peopleAgreement } from './maxx-people';

/** The card's sections on how far to trust the judges: against the visitors' votes, and against people on the set itself. */

/**
 * The judge's agreement with the visitors (`--calibrate`), per subset and per language, with its
 * 95 % interval; each judged pair counted once; without calibration, how to get it.
 */
export function calibrationSection(records: readonly MaxxItemRecord[]): string[] {
  const calibrated = records.filter((record): record is MaxxItemRecord & { stats: { calibration: CalibrationRecord } } =>
    Boolean(record.stats.calibration),
  );
  const lines = ['## How far to trust the judge', ''];
  if (calibrated.length === 0) {
    lines.push(
      "Not measured for this set: `agora maxx --calibrate` has the judges also compare the two original replies of each item, in both orders, and reports their agreement with the visitors' own preference here.",
      '',
    );
    return lines;
  }
  const share = (value: number | null) => (value === null ? 'n/a' : `${(100 * value).toFixed(1)} %`);
  const table = (title: string, key: (record: MaxxItemRecord) => string) => {
    const groups = new Map<string, CalibrationRecord[]>();
    for (const record of calibrated) groups.set(key(record), [...(groups.get(key(record)) ?? []), record.stats.calibration]);
    lines.push(`| ${title} | pairs | judge agrees | 95 % interval | inconsistent or split |`, '|---|---:|---:|---|---:|');
    for (const [name, group] of [...groups, ['all', onePerPair(calibrated.map((record) => record.stats.calibration))] as const]) {
      const agreement = agreementOf(group);
      lines.push(
        `| ${name} | ${agreement.pairs} | ${share(agreement.rate)} | ${agreement.low === null ? 'n/a' : `${share(agreement.low)} – ${share(agreement.high)}`} | ${agreement.inconsistent} |`,
      );
    }
    lines.push('');
  };
  lines.push(
    "With `--calibrate`, the judges also compared the two original replies of each item in both orders, formatting removed, and their verdict is set against the visitor's: their vote (a both-bad vote prefers neither, so only a tie agrees), or for a disliked answer the other reply of the turn (neither, when both were disliked). A side is the panel's verdict only when every judge's two orders choose it; opposite orders, or judges that disagree, count as disagreement; answers that were not the JSON asked for are left out. A vote and a dislike of the same turn are one pair, counted once. The interval is Wilson's. This measures the judges on original-against-original pairs; their agreement with people on their real task, the set's reply against the original, is the next section.",
    '',
  );
  table('subset', (record) => `\`${record.subset}\``);
  table('language', (record) => record.language);
  return lines;
}

/**
 * People on the set (check mode): how often a visitor who saw a kept row's reply beside the original
 * it beat, blind, chose the set's reply — the judges' agreement with people on their real task — and
 * the share of rows people preferred. Choices made faster than the replies can be read are left out.
 */
export function peopleSection(records: readonly MaxxItemRecord[], people: Readonly<Record<string, readonly PeopleVerdict[]>>): string[] {
  const kept = records.filter((record) => record.status === 'kept' && (people[record.itemKey]?.length ?? 0) > 0);
  const lines = ['<a id="people-checks"></a>', '## Do people agree with the judges?', ''];
  if (kept.length === 0) {
    lines.push(
      "Not measured yet: with check mode on (`AGORA_MAXX_CHECKS=1`), visitors who opt in are shown a row's reply beside the original it beat, blind and in random order, and say which is better; the next `agora maxx --out` reports it here.",
      '',
    );
    return lines;
  }
  const share = (value: number | undefined) => (value === undefined ? 'n/a' : `${(100 * value).toFixed(1)} %`);
  const interval = (value: { low: number; high: number } | null) => (value === null ? 'n/a' : `${share(value.low)} – ${share(value.high)}`);
  lines.push(
    "Each check is a visitor's choice between a kept row's reply and the original it beat, shown blind and in random order. The judges preferred the row's reply every time, so agreement is the share of checks where the person did too: with ties counted as disagreement, and among people who took a side. Wilson's 95 % interval.",
    '',
    '| group | rows checked | checks | chose the set’s reply | chose the original | equal | agreement (ties disagree) | 95 % interval | agreement without ties | 95 % interval | rows people preferred |',
    '|---|---:|---:|---:|---:|---:|---:|---|---:|---|---:|',
  );
  const groups = new Map<string, MaxxItemRecord[]>([['all', kept]]);
  for (const record of kept) {
    for (const name of [`\`${record.subset}\``, record.language]) groups.set(name, [...(groups.get(name) ?? []), record]);
  }
  for (const [name, group] of groups) {
    const verdicts = group.flatMap((record) => people[record.itemKey] ?? []);
    const agreement = peopleAgreement(verdicts);
    const preferred = group.filter((record) => {
      const own = people[record.itemKey] ?? [];
      return own.filter((verdict) => verdict === 'optimal').length > own.filter((verdict) => verdict === 'original').length;
    }).length;
    lines.push(
      `| ${name} | ${group.length} | ${agreement.checks} | ${agreement.optimal} | ${agreement.original} | ${agreement.ties} | ${share(agreement.withTies?.rate)} | ${interval(agreement.withTies)} | ${share(agreement.withoutTies?.rate)} | ${interval(agreement.withoutTies)} | ${share(preferred / group.length)} |`,
    );
  }
  lines.push('');
  return lines;
}
