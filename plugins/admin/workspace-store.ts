/**
 * Workspaces: named groups of users (with a role each) and monitored interfaces. A workspace's id is the
 * organisation id used everywhere else: the `org` claim of a token, per-organisation feature flags and the
 * `{orgId}` of the observability routes. The id is made from the name (lower case, dashes) when created.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { Clock } from '../../kernel/clock.ts';

interface WorkspaceRow {
  id: string;
  name: string;
  /** Lower-cased name, unique, so names differing only in case collide. */
  name_key: string;
  description: string;
  created_at: string;
}

interface MemberRow {
  workspace_id: string;
  user_id: string;
  role: string;
  added_at: string;
}

interface WorkspaceInterfaceRow {
  workspace_id: string;
  interface_id: string;
  added_at: string;
}

interface WorkspaceTables {
  admin_workspaces: WorkspaceRow;
  admin_workspace_members: MemberRow;
  admin_workspace_interfaces: WorkspaceInterfaceRow;
}

/** A member of a workspace. */
export interface WorkspaceMember {
  userId: string;
  role: string;
  addedAt: string;
}

/** A workspace with its members and interfaces. */
export interface Workspace {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  members: WorkspaceMember[];
  interfaceIds: string[];
}

/** Migrations of the workspace tables. */
export const workspaceMigrations: Record<string, Migration> = {
  '001_workspaces': {
    // migrations run before table types exist
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('admin_workspaces')
        .ifNotExists()
        .addColumn('id', 'varchar(80)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('name_key', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('description', 'varchar(1000)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('admin_workspace_members')
        .ifNotExists()
        .addColumn('workspace_id', 'varchar(80)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('role', 'varchar(100)', (c) => c.notNull())
        .addColumn('added_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('admin_workspace_members_pk', ['workspace_id', 'user_id'])
        .execute();
      await db.schema
        .createTable('admin_workspace_interfaces')
        .ifNotExists()
        .addColumn('workspace_id', 'varchar(80)', (c) => c.notNull())
        .addColumn('interface_id', 'varchar(200)', (c) => c.notNull())
        .addColumn('added_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('admin_workspace_interfaces_pk', ['workspace_id', 'interface_id'])
        .execute();
    },
  },
};

/** The id a workspace name gets: lower case letters, digits and single dashes (at most 60 characters). */
export function workspaceIdFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? `workspace-${randomBytes(4).toString('hex')}` : slug;
}

/** Reads and writes workspaces. */
export class WorkspaceStore {
  constructor(
    private readonly db: Kysely<WorkspaceTables>,
    private readonly clock: Clock,
  ) {}

  /** Every workspace, by name, with members and interfaces. */
  async list(): Promise<Workspace[]> {
    const rows = await this.db.selectFrom('admin_workspaces').selectAll().orderBy('name_key').execute();
    const members = await this.db.selectFrom('admin_workspace_members').selectAll().orderBy('user_id').execute();
    const links = await this.db.selectFrom('admin_workspace_interfaces').selectAll().orderBy('interface_id').execute();
    return rows.map((row) => this.assemble(row, members, links));
  }

  /** One workspace, or undefined. */
  async get(id: string): Promise<Workspace | undefined> {
    const row = await this.db.selectFrom('admin_workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const members = await this.db.selectFrom('admin_workspace_members').selectAll().where('workspace_id', '=', id).orderBy('user_id').execute();
    const links = await this.db
      .selectFrom('admin_workspace_interfaces')
      .selectAll()
      .where('workspace_id', '=', id)
      .orderBy('interface_id')
      .execute();
    return this.assemble(row, members, links);
  }

  private assemble(row: WorkspaceRow, members: MemberRow[], links: WorkspaceInterfaceRow[]): Workspace {
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      createdAt: row.created_at,
      members: members
        .filter((m) => m.workspace_id === row.id)
        .map((m) => ({ userId: m.user_id, role: m.role, addedAt: m.added_at })),
      interfaceIds: links.filter((l) => l.workspace_id === row.id).map((l) => l.interface_id),
    };
  }

  /** The workspace already holding this name (case-insensitive), if any. */
  async findByName(name: string): Promise<{ id: string; name: string } | undefined> {
    return this.db
      .selectFrom('admin_workspaces')
      .select(['id', 'name'])
      .where('name_key', '=', name.toLowerCase())
      .executeTakeFirst();
  }

  /** Creates a workspace; its id comes from the name, with a suffix when another name made the same id. */
  async create(name: string, description: string): Promise<Workspace> {
    const base = workspaceIdFromName(name);
    let id = base;
    for (let n = 2; await this.db.selectFrom('admin_workspaces').select('id').where('id', '=', id).executeTakeFirst(); n++) {
      id = `${base}-${n}`;
    }
    const createdAt = this.clock.now().toISOString();
    await this.db
      .insertInto('admin_workspaces')
      .values({ id, name, name_key: name.toLowerCase(), description, created_at: createdAt })
      .execute();
    return { id, name, description, createdAt, members: [], interfaceIds: [] };
  }

  /** Deletes a workspace with its memberships and interface links; false when there was none. */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('admin_workspace_members').where('workspace_id', '=', id).execute();
      await trx.deleteFrom('admin_workspace_interfaces').where('workspace_id', '=', id).execute();
      const result = await trx.deleteFrom('admin_workspaces').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** The member's entry, if the user is a member. */
  async member(workspaceId: string, userId: string): Promise<WorkspaceMember | undefined> {
    const row = await this.db
      .selectFrom('admin_workspace_members')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? { userId: row.user_id, role: row.role, addedAt: row.added_at } : undefined;
  }

  /** Adds a member. */
  async addMember(workspaceId: string, userId: string, role: string): Promise<WorkspaceMember> {
    const addedAt = this.clock.now().toISOString();
    await this.db.insertInto('admin_workspace_members').values({ workspace_id: workspaceId, user_id: userId, role, added_at: addedAt }).execute();
    return { userId, role, addedAt };
  }

  /** Removes a member; false when the user was not one. */
  async removeMember(workspaceId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('admin_workspace_members')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Whether the interface is in the workspace. */
  async hasInterface(workspaceId: string, interfaceId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('admin_workspace_interfaces')
      .select('interface_id')
      .where('workspace_id', '=', workspaceId)
      .where('interface_id', '=', interfaceId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Adds an interface to the workspace. */
  async addInterface(workspaceId: string, interfaceId: string): Promise<void> {
    await this.db
      .insertInto('admin_workspace_interfaces')
      .values({ workspace_id: workspaceId, interface_id: interfaceId, added_at: this.clock.now().toISOString() })
      .execute();
  }

  /** Removes an interface from the workspace (or, without a workspace, from every workspace); count removed. */
  async removeInterface(interfaceId: string, workspaceId?: string): Promise<number> {
    let query = this.db.deleteFrom('admin_workspace_interfaces').where('interface_id', '=', interfaceId);
    if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
