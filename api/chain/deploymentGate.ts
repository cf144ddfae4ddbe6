// A new smart account is deployed by its first user operation (the one carrying initCode). Two
// concurrent first operations would both carry it and the second would fail on chain, so within
// this process the first one deploys and the others wait for its inclusion.
import type { Address, Hex } from "viem";

export type DeploymentGate = ReturnType<typeof createDeploymentGate>;

export function createDeploymentGate() {
  /** Accounts whose deployment is being checked or is in flight. */
  const deployments = new Map<Address, Promise<void>>();

  return {
    /**
     * Sends at once when the account exists. Otherwise the first caller's operation deploys it and
     * the others wait until `included` settles for it: the gate is registered before any await, so
     * two concurrent callers can never both carry the initCode.
     */
    async send(parameters: {
      account: { address: Address; isDeployed: () => Promise<boolean> };
      send: () => Promise<Hex>;
      included: (hash: Hex) => Promise<unknown>;
    }): Promise<Hex> {
      const { account, send, included } = parameters;
      const existing = deployments.get(account.address);
      if (existing) {
        await existing.catch(() => {});
        return send();
      }
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      deployments.set(account.address, gate);
      const release = () => {
        open();
        if (deployments.get(account.address) === gate) deployments.delete(account.address);
      };
      try {
        if (await account.isDeployed()) {
          release();
          return send();
        }
        const hash = await send();
        void included(hash)
          .catch(() => {})
          .finally(release);
        return hash;
      } catch (error) {
        release();
        throw error;
      }
    },

    /** Accounts with a deployment being checked or in flight (for tests and metrics). */
    get pending() {
      return deployments.size;
    },
  };
}
