/**
 * Who may do what in the operator's console. Two roles: a reviewer decides on conversations and
 * votes (the privacy and integrity loops); an admin does that and runs the arena (models, content,
 * publication, staff, the audit log).
 */
export type StaffRole = 'admin' | 'reviewer';

/** Whether a member with `role` may use a route that needs `needed`: an admin may do all a reviewer may. */
export function roleAllows(role: StaffRole, needed: StaffRole): boolean {
  return role === 'admin' || role === needed;
}
