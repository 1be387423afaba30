// What the rest of the server may ask of the machine gateway (docs/machine-protocol.md).
// Route modules depend on this interface only, never on the broker behind it.

export interface Gateway {
  /**
   * Publishes the machine's waiting commands (status notSent, not expired) and the packages of its
   * started deliveries (docs/deployments.md) if it is connected. Safe on any instance and when called
   * twice: each command and delivery is claimed by one conditional update.
   */
  deliverPending(rvmId: number): Promise<void>;
  /** Whether the gateway currently has a broker (false while an external broker is unreachable). */
  readonly connected: boolean;
  /** Where machines connect (e.g. mqtt://127.0.0.1:1884), for the simulator and the docs; null without a broker. */
  readonly machineUrl: string | null;
  close(): Promise<void>;
}

/** A server without a gateway (tests of other areas): commands wait, as for an offline machine. */
export const NO_GATEWAY: Gateway = {
  deliverPending: async () => undefined,
  connected: false,
  machineUrl: null,
  close: async () => undefined,
};
