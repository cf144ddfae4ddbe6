import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { createDeploymentGate } from "./deploymentGate";

const ADDRESS = "0x00000000000000000000000000000000000000aa";
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("createDeploymentGate", () => {
  it("sends at once, concurrently, from an account that is deployed", async () => {
    const gate = createDeploymentGate();
    const account = { address: ADDRESS, isDeployed: async () => true } as const;
    let inFlight = 0;
    let most = 0;
    const send = async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return hash(1);
    };
    const included = async () => {};
    await Promise.all([gate.send({ account, send, included }), gate.send({ account, send, included })]);
    expect(most).toBe(2);
    expect(gate.pending).toBe(0);
  });

  it("lets only the first operation of a new account go until it is included", async () => {
    const gate = createDeploymentGate();
    const inclusion = deferred();
    const order: string[] = [];
    const account = { address: ADDRESS, isDeployed: async () => false } as const;
    const first = gate.send({
      account,
      send: async () => {
        order.push("first sent");
        return hash(1);
      },
      included: () => inclusion.promise.then(() => order.push("first included")),
    });
    const second = gate.send({
      account,
      send: async () => {
        order.push("second sent");
        return hash(2);
      },
      included: async () => {},
    });
    expect(await first).toBe(hash(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(["first sent"]);
    inclusion.resolve();
    expect(await second).toBe(hash(2));
    expect(order).toEqual(["first sent", "first included", "second sent"]);
    expect(gate.pending).toBe(0);
  });

  it("opens the gate when the first send fails, so the next caller deploys instead", async () => {
    const gate = createDeploymentGate();
    const account = { address: ADDRESS, isDeployed: async () => false } as const;
    const failed = gate.send({
      account,
      send: async () => {
        throw new Error("refused");
      },
      included: async () => {},
    });
    await expect(failed).rejects.toThrow("refused");
    expect(gate.pending).toBe(0);
    await expect(gate.send({ account, send: async () => hash(3), included: async () => {} })).resolves.toBe(hash(3));
  });

  it("opens the gate when inclusion fails, too", async () => {
    const gate = createDeploymentGate();
    const account = { address: ADDRESS, isDeployed: async () => false } as const;
    await gate.send({ account, send: async () => hash(1), included: async () => Promise.reject(new Error("timeout")) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(gate.pending).toBe(0);
  });
});
