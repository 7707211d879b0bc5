/**
 * Group commit: writes that arrive while one group is being committed wait, then share the next
 * transaction. Each caller's promise settles only once its group has committed (or failed), so a
 * write is durable before anyone is told it succeeded; what is saved is the commit itself, the most
 * expensive statement of a short write (a WAL write on SQLite, a WAL flush to disk on PostgreSQL).
 *
 * When a group of several fails, each of its writes is tried again alone, so that one bad write
 * never fails the others and every caller gets the outcome its own transaction would have had.
 */
export class GroupCommit<Item, Result> {
  private queue: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  private committing = false;
  private scheduled = false;

  /**
   * @param commitGroup writes every item in one transaction, returning one result per item in order.
   * @param maxGroup the largest group; more items wait for the next one.
   */
  constructor(
    private readonly commitGroup: (items: Item[]) => Promise<Result[]>,
    private readonly maxGroup = 64,
  ) {}

  /** Queues one write; settles when the transaction holding it has committed. */
  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // The writes of one turn of the event loop (requests read together) start one group together.
      if (!this.committing && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          void this.next();
        });
      }
    });
  }

  private async next(): Promise<void> {
    if (this.committing || this.queue.length === 0) return;
    this.committing = true;
    const group = this.queue.splice(0, this.maxGroup);
    try {
      const results = await this.commitGroup(group.map((entry) => entry.item));
      group.forEach((entry, index) => entry.resolve(results[index]!));
    } catch (error) {
      if (group.length === 1) group[0]!.reject(error);
      else
        await Promise.all(group.map((entry) => this.commitGroup([entry.item]).then((results) => entry.resolve(results[0]!), entry.reject)));
    } finally {
      this.committing = false;
      void this.next();
    }
  }
}
