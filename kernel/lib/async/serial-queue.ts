/** Runs async tasks one at a time in call order (check-then-write sequences that must not interleave). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs the task after every task queued before it; resolves or rejects with its outcome. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
