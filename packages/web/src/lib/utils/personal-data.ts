import type * as Privacy from '@agora/privacy';
import type { PiiKind } from '@agora/privacy';

/** What the warning names, in the visitor's words: the rules' kinds grouped as a visitor knows them. */
export type PersonalDataKind = 'email' | 'phone' | 'bank_account' | 'card' | 'identity_number';
export const PERSONAL_DATA_KINDS: readonly PersonalDataKind[] = ['email', 'phone', 'bank_account', 'card', 'identity_number'];

/**
 * The rules that need no model and warn before sending (docs/privacy.md): e-mail, phone, IBAN,
 * card and every identity number. Addresses and birth dates are left to the server's screening:
 * a prompt asking for a letter to « 12 rue des Lilas » is often fine to send.
 */
const SHOWN: Partial<Record<PiiKind, PersonalDataKind>> = { email: 'email', phone: 'phone', iban: 'bank_account', card: 'card' };
const shownAs = (kind: PiiKind): PersonalDataKind | undefined =>
  kind === 'address' || kind === 'birth_date' ? undefined : (SHOWN[kind] ?? 'identity_number');

export interface PersonalDataFinding {
  kind: PersonalDataKind;
  start: number;
  end: number;
}

export interface PersonalDataCheck {
  /** Each kind found once, in the order of {@link PERSONAL_DATA_KINDS}. */
  kinds: PersonalDataKind[];
  findings: PersonalDataFinding[];
}

/** The rules arrive with the first check (their own chunk: the arena loads without them). */
let rules: Promise<typeof Privacy> | undefined;
export const loadRules = () => (rules ??= import('@agora/privacy'));

/** The same rules as the server's screening, on what the visitor is about to send. */
export async function checkPersonalData(text: string): Promise<PersonalDataCheck> {
  const { screenText } = await loadRules();
  const findings = screenText(text).findings.flatMap((finding) => {
    const kind = shownAs(finding.kind);
    return kind ? [{ kind, start: finding.start, end: finding.end }] : [];
  });
  return { kinds: PERSONAL_DATA_KINDS.filter((kind) => findings.some((finding) => finding.kind === kind)), findings };
}

/** A piece of the excerpt shown under the box, `marked` where personal data was found. */
export interface ExcerptPiece {
  text: string;
  marked: boolean;
}

/** The text around each finding (`context` characters either side, « … » where it is cut), findings marked. */
export function excerpt(text: string, findings: readonly PersonalDataFinding[], context = 24): ExcerptPiece[] {
  const sorted = [...findings].sort((left, right) => left.start - right.start);
  // One window per finding, overlapping windows merged.
  const windows: { start: number; end: number; findings: PersonalDataFinding[] }[] = [];
  for (const finding of sorted) {
    const start = Math.max(0, finding.start - context);
    const end = Math.min(text.length, finding.end + context);
    const last = windows.at(-1);
    if (last && start <= last.end) {
      last.end = Math.max(last.end, end);
      last.findings.push(finding);
    } else windows.push({ start, end, findings: [finding] });
  }
  const pieces: ExcerptPiece[] = [];
  for (const window of windows) {
    if (window.start > 0) pieces.push({ text: '… ', marked: false });
    let cursor = window.start;
    for (const finding of window.findings) {
      const start = Math.max(cursor, finding.start);
      pieces.push({ text: text.slice(cursor, start), marked: false }, { text: text.slice(start, finding.end), marked: true });
      cursor = Math.max(cursor, finding.end);
    }
    pieces.push({ text: text.slice(cursor, window.end), marked: false });
    if (window.end < text.length) pieces.push({ text: ' …', marked: false });
  }
  return pieces.filter((piece) => piece.text !== '');
}
