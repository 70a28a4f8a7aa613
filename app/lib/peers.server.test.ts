import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { PEER_MESSAGE, peersOver, workerPeers } from "./peers.server";

function fakeChannel() {
  const emitter = new EventEmitter();
  const sent: unknown[] = [];
  return {
    sent,
    deliver: (message: unknown) => emitter.emit("message", message),
    channel: {
      connected: true,
      send: (message: unknown, callback: (error: Error | null) => void) => {
        sent.push(message);
        callback(null);
      },
      on: (event: "message", listener: (message: unknown) => void) => emitter.on(event, listener),
    },
  };
}

describe("messages between workers", () => {
  it("publishes in the envelope the primary relays", () => {
    const fake = fakeChannel();
    peersOver(fake.channel).publish("breaker", { state: "closed" });
    expect(fake.sent).toEqual([{ type: PEER_MESSAGE, topic: "breaker", at: expect.any(Number), payload: { state: "closed" } }]);
  });

  it("sends nothing once the channel to the primary is closed (a worker shutting down)", () => {
    const fake = fakeChannel();
    fake.channel.connected = false;
    const peers = peersOver(fake.channel);
    peers.publish("breaker", { state: "closed" });
    peers.subscribe("breaker", () => undefined);
    expect(fake.sent).toEqual([]);
  });

  it("asks for the topic's last message when it subscribes, and hears only its topic", () => {
    const fake = fakeChannel();
    const heard: unknown[] = [];
    peersOver(fake.channel).subscribe("breaker", (payload) => heard.push(payload));
    expect(fake.sent).toEqual([{ type: PEER_MESSAGE, topic: "breaker", ask: true }]);
    fake.deliver({ type: PEER_MESSAGE, topic: "breaker", at: 5, payload: { state: "open", at: 5 } });
    fake.deliver({ type: PEER_MESSAGE, topic: "other", payload: 1 });
    fake.deliver({ type: "something-else", topic: "breaker", payload: 2 });
    fake.deliver({ type: PEER_MESSAGE, topic: "breaker", ask: true });
    fake.deliver("text");
    expect(heard).toEqual([{ state: "open", at: 5 }]);
  });

  it("sends and hears nothing outside a cluster", () => {
    const peers = workerPeers();
    const heard: unknown[] = [];
    expect(() => peers.publish("breaker", { state: "closed" })).not.toThrow();
    peers.subscribe("breaker", (payload) => heard.push(payload));
    process.emit("message", { type: PEER_MESSAGE, topic: "breaker", payload: { state: "closed" } }, undefined);
    expect(heard).toEqual([]);
  });
});
