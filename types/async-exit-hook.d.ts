declare module "async-exit-hook" {
  /** Runs `hook` on exit, SIGINT and SIGTERM; asynchronous hooks call `done` when finished. */
  function exitHook(hook: (done: () => void) => void): void;
  export default exitHook;
}
