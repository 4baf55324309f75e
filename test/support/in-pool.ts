/** Runs `task` over `items`, at most `concurrency` at a time. */
export async function inPool<T>(items: T[], concurrency: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
