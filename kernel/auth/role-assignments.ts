/** The organisation's role assignments (user id -> role), used for JWT callers whose token carries no role. */
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';

/** One assignment. */
export interface RoleAssignment {
  userId: string;
  role: string;
  assignedAt: string;
}

interface RoleRow {
  user_id: string;
  role: string;
  assigned_at: string;
}

/** Reads and writes role assignments. */
export class RoleAssignmentStore {
  constructor(
    private readonly db: Kysely<{ kernel_role_assignments: RoleRow }>,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<RoleAssignment[]> {
    const rows = await this.db.selectFrom('kernel_role_assignments').selectAll().orderBy('user_id').execute();
    return rows.map((r) => ({ userId: r.user_id, role: r.role, assignedAt: r.assigned_at }));
  }

  async get(userId: string): Promise<RoleAssignment | undefined> {
    const row = await this.db
      .selectFrom('kernel_role_assignments')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? { userId: row.user_id, role: row.role, assignedAt: row.assigned_at } : undefined;
  }

  /** Assigns (or replaces) the user's role. */
  async assign(userId: string, role: string): Promise<RoleAssignment> {
    const assignedAt = this.clock.now().toISOString();
    await this.db.deleteFrom('kernel_role_assignments').where('user_id', '=', userId).execute();
    await this.db.insertInto('kernel_role_assignments').values({ user_id: userId, role, assigned_at: assignedAt }).execute();
    return { userId, role, assignedAt };
  }

  /** Removes the user's role; false when there was none. */
  async revoke(userId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('kernel_role_assignments').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
