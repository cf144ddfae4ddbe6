// One account's transactions sent one after another. With several in flight at once, a nonce read
// from the node's pending count while an earlier send is still under way can be handed out twice;
// the second transaction then replaces the first in the mempool, and whoever waits for the first
// receipt waits for ever (seen: 2 of 50 concurrent faucet mints timed out). Sending takes a few
// milliseconds; waiting for the receipts still happens in parallel.
export type OneAtATime = <T>(send: () => Promise<T>) => Promise<T>;

export function oneAtATime(): OneAtATime {
  let tail: Promise<unknown> = Promise.resolve();
  return (send) => {
    const run = tail.then(send, send);
    tail = run.catch(() => {});
    return run;
  };
}
