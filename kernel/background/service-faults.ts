/**
 * What makes the service degraded while it keeps answering: a full disk, a background job whose last run failed, a
 * tampered audit trail. Each condition has a key and a reason a person reads; health lists the open ones and says
 * `degraded` while any is open. A condition may carry a re-check (the disk has room again), asked at most once a
 * second when the list is read, so it clears on its own once its cause is gone.
 */

/** One open condition as health shows it. */
export interface ServiceFault {
  /** Stable key (`storage-full`, `job:<name>`, `audit-tampered`). */
  key: string;
  /** What is wrong and what it stops, in a sentence. */
  reason: string;
  /** When it was first reported (ISO 8601). */
  since: string;
}

interface OpenFault extends ServiceFault {
  /** True while the condition still holds; omitted: it holds until cleared. */
  stillHolds?: () => boolean;
  checkedAtMs: number;
}

const RECHECK_MS = 1_000;

/** The open conditions of this process. */
export class ServiceFaults {
  private readonly open = new Map<string, OpenFault>();

  /** Opens (or re-words) a condition; its first report time is kept while it stays open. */
  report(key: string, reason: string, stillHolds?: () => boolean): void {
    const existing = this.open.get(key);
    this.open.set(key, {
      key,
      reason,
      since: existing?.since ?? new Date().toISOString(),
      ...(stillHolds ? { stillHolds } : {}),
      checkedAtMs: Date.now(),
    });
  }

  /** Closes a condition; returns whether it was open. */
  clear(key: string): boolean {
    return this.open.delete(key);
  }

  /** Whether a condition is open now (its re-check asked when due). */
  has(key: string): boolean {
    return this.list().some((fault) => fault.key === key);
  }

  /** The open conditions, oldest first; one whose re-check says it is gone is cleared first. */
  list(): ServiceFault[] {
    const now = Date.now();
    for (const fault of [...this.open.values()]) {
      if (!fault.stillHolds || now - fault.checkedAtMs < RECHECK_MS) continue;
      fault.checkedAtMs = now;
      let holds = true;
      try {
        holds = fault.stillHolds();
      } catch {
        holds = true;
      }
      if (!holds) this.open.delete(fault.key);
    }
    return [...this.open.values()].map(({ key, reason, since }) => ({ key, reason, since }));
  }
}
