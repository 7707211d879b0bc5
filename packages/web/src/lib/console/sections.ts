import type { StaffRole } from '@agora/contract';
import type { ConsoleMessageKey } from '../i18n/console-areas';

/** The console's sections: where each lives, its label, and the role it needs (the server checks it again). */
export const CONSOLE_SECTIONS: readonly { path: string; key: ConsoleMessageKey; role: StaffRole }[] = [
  { path: '/admin/review', key: 'console.review.nav', role: 'reviewer' },
  { path: '/admin/integrity', key: 'console.integrity.nav', role: 'reviewer' },
  { path: '/admin/activity', key: 'console.activity.nav', role: 'reviewer' },
  { path: '/admin/influence', key: 'console.influence.nav', role: 'reviewer' },
  { path: '/admin/models', key: 'console.models.nav', role: 'admin' },
  { path: '/admin/content', key: 'console.content.nav', role: 'admin' },
  { path: '/admin/publication', key: 'console.publication.nav', role: 'admin' },
  { path: '/admin/staff', key: 'console.staff.nav', role: 'admin' },
  { path: '/admin/audit', key: 'console.audit.nav', role: 'admin' },
];

/** The section a path belongs to (its longest matching prefix), if any. */
export function sectionOf(pathname: string) {
  return CONSOLE_SECTIONS.find((section) => pathname === section.path || pathname.startsWith(`${section.path}/`));
}
