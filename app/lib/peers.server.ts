/**
 * Messages between the server's worker processes: scripts/workers.mjs relays each one from its
 * worker to all the others, and keeps the latest of each topic (by its time) for a worker that
 * subscribes later (a subscription asks for it). Outside a cluster (one process, tests) nothing is sent and
 * nothing arrives.
 */
import cluster from "node:cluster";

/** The envelope the primary relays; scripts/workers.mjs knows it by `type`. */
export const PEER_MESSAGE = "crib-search:peers";

/** `at` lets the primary keep the latest message of a topic when two arrive out of order. */
type PeerMessage = { type: typeof PEER_MESSAGE; topic: string; at: number; payload: unknown } | { type: typeof PEER_MESSAGE; topic: string; ask: true };

/** What a worker talks through: its IPC channel to the primary. */
export interface Channel {
  send?: (message: PeerMessage, callback: (error: Error | null) => void) => unknown;
  connected?: boolean;
  on(event: "message", listener: (message: unknown) => void): unknown;
}

function isPeerMessage(message: unknown): message is { type: typeof PEER_MESSAGE; topic: string; payload: unknown } {
  if (typeof message !== "object" || message === null) return false;
  const m = message as { type?: unknown; topic?: unknown };
  return m.type === PEER_MESSAGE && typeof m.topic === "string" && "payload" in m;
}

export interface Peers {
  publish(topic: string, payload: unknown): void;
  subscribe(topic: string, listener: (payload: unknown) => void): void;
}

export function peersOver(channel: Channel | null): Peers {
  // A worker that is shutting down has lost its channel; what it would still say is dropped. The
  // callback keeps a failed send from becoming an 'error' event nobody listens to.
  const send = (message: PeerMessage) => {
    if (channel?.send && channel.connected !== false) channel.send(message, () => undefined);
  };
  return {
    publish(topic, payload) {
      send({ type: PEER_MESSAGE, topic, at: Date.now(), payload });
    },
    subscribe(topic, listener) {
      if (!channel) return;
      channel.on("message", (message) => {
        if (isPeerMessage(message) && message.topic === topic) listener(message.payload);
      });
      send({ type: PEER_MESSAGE, topic, ask: true });
    },
  };
}

/** This process's peers: the other workers of the cluster, or nobody. */
export function workerPeers(): Peers {
  return peersOver(cluster.isWorker && process.send ? (process as Channel) : null);
}
