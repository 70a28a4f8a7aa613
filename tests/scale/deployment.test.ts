/**
 * The shipped balancer configuration, docs/deploy/haproxy.cfg, run as it is (only its bind, its
 * servers' addresses and Docker's resolvers changed: rig.ts `renderShippedHaproxy`) in front of
 * two replicas that trust exactly the balancer's address (TRUST_PROXY=127.0.0.1), as compose.yaml
 * sets them up: a client cannot choose its address with a forged X-Forwarded-For, bodies over the
 * balancer's bound and /metrics stop at the balancer, a client's X-Forwarded-Host never reaches a
 * replica, each request is a line in the balancer's log, and when no replica is ready the
 * replicas still answer through the backup servers instead of HAProxy's "No server is available".
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request, startReplica, startShippedHaproxy, waitFor, type Balancer, type Replica } from "./rig";

/** Each replica's flood guard (counted by each replica for itself). */
const LIMIT = 10;
let replicas: Replica[] = [];
let balancer: Balancer & { output(): string };

beforeAll(async () => {
  const env = {
    TRUST_PROXY: "127.0.0.1",
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    // Long enough that the last test sees both replicas stopping, not ready and still serving.
    SHUTDOWN_DRAIN_MS: "60000",
  };
  replicas = await Promise.all([startReplica("a", env), startReplica("b", env)]);
  balancer = await startShippedHaproxy(replicas.map((r) => r.port));
});

afterAll(async () => {
  balancer?.stop();
  await Promise.all(replicas.map((r) => r.stop()));
});

type Entry = Record<string, unknown>;
/** The replicas' request log lines (JSON) for a request id. */
const replicaLog = (requestId: string): Entry[] =>
  replicas.flatMap((r) =>
    r
      .output()
      .split("\n")
      .filter((line) => line.includes(requestId))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Entry];
        } catch {
          return [];
        }
      })
      .filter((entry) => entry.requestId === requestId),
  );
/** The balancer's log line (option httplog) of a request id, which it captures between braces. */
const balancerLog = (requestId: string): string | undefined => balancer.output().split("\n").find((line) => line.includes(`{${requestId}}`));
/** Waits until the logs `where` says have a line for each request id (a line is written as its answer ends). */
const logged = (ids: string[], where: { replicas: boolean }) =>
  waitFor(
    async () => ids.every((id) => balancerLog(id) && (!where.replicas || replicaLog(id).length > 0)),
    10_000,
    () => `no log line for ${ids.filter((id) => !balancerLog(id) || (where.replicas && replicaLog(id).length === 0)).join(", ")}`,
  );
const ids = (round: string, count: number) => Array.from({ length: count }, (_, i) => `${round}-${i}`);

describe("a forged X-Forwarded-For through the shipped balancer", () => {
  /** 2 × LIMIT + 6 requests from `from`, each naming another address of its own; their statuses. */
  async function flood(from: string, round: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT + 6; i++) {
      const forged = i % 3 === 2 ? `evil text ${i}, 198.51.100.${i}` : `203.0.113.${i}`;
      const answer = await request(`${balancer.url}/api/config?q=part-${i}`, { localAddress: from, headers: { "X-Forwarded-For": forged, "X-Request-ID": `${round}-${i}` } });
      statuses.push(answer.status);
    }
    return statuses;
  }
  const tally = (statuses: number[]) => Object.fromEntries([...new Set(statuses)].sort().map((s) => [s, statuses.filter((t) => t === s).length]));

  it("limits a terminal as one client, by the address it connects from, on each replica", async () => {
    // Round-robin over two replicas, each allowing LIMIT a minute: 2 × LIMIT answered, the rest 429.
    expect(tally(await flood("127.0.0.2", "terminal"))).toEqual({ 200: 2 * LIMIT, 429: 6 });
    // Each line of every replica's log names the terminal, never the address it wrote.
    await logged(ids("terminal", 2 * LIMIT + 6), { replicas: true });
    for (let i = 0; i < 2 * LIMIT + 6; i++) {
      const entries = replicaLog(`terminal-${i}`);
      expect(entries, `terminal-${i}`).toHaveLength(1);
      expect(entries[0]).toMatchObject({ client: "127.0.0.2" });
      // The balancer's line too; like the replicas' it leaves out the query, what people searched for.
      expect(balancerLog(`terminal-${i}`), `terminal-${i}`).toMatch(/^127\.0\.0\.2:\d+ .* "GET \/api\/config HTTP\/1\.1"$/);
    }
    // Another terminal is another client, with its own allowance.
    expect((await request(`${balancer.url}/api/config`, { localAddress: "127.0.0.3" })).status).toBe(200);
  });

  it("does the same for a client the replicas trust as they trust the balancer: the header is replaced, not appended to", async () => {
    // Connecting from the balancer's own address, as a plant terminal did under
    // TRUST_PROXY=uniquelocal: a balancer that appended to the client's header would have the
    // replicas believe the forged address after it, and every request would be a new client.
    expect(tally(await flood("127.0.0.1", "trusted"))).toEqual({ 200: 2 * LIMIT, 429: 6 });
    await logged(ids("trusted", 2 * LIMIT + 6), { replicas: true });
    for (let i = 0; i < 2 * LIMIT + 6; i++) expect(replicaLog(`trusted-${i}`)[0], `trusted-${i}`).toMatchObject({ client: "127.0.0.1" });
  });
});

describe("what stops at the shipped balancer", () => {
  it("refuses a body over 1 MiB with 413 before any replica sees it", async () => {
    const { status, requestId } = await postDeclaring(balancer.url, 2 * 1024 * 1024);
    expect(status).toBe(413);
    // The balancer logged it and sent it to no server.
    await logged([requestId], { replicas: false });
    expect(balancerLog(requestId)).toMatch(/<NOSRV>/);
    expect(replicaLog(requestId)).toEqual([]);
  });

  it("refuses /metrics, which each replica serves on its own port", async () => {
    for (const path of ["/metrics", "/Metrics/", "/%6detrics"]) expect((await request(`${balancer.url}${path}`)).status, path).toBe(403);
    expect((await request(`${replicas[0]!.url}/metrics`)).status).toBe(200);
  });

  it("never passes on a client's X-Forwarded-Host", async () => {
    const headers = { "X-Forwarded-Host": "not a host" };
    // A replica asked directly refuses the header that names no host…
    expect((await request(`${replicas[0]!.url}/api/config`, { headers })).status).toBe(400);
    // …and through the balancer it never arrives.
    expect((await request(`${balancer.url}/api/config`, { headers, localAddress: "127.0.0.5" })).status).toBe(200);
  });
});

describe("no replica ready", () => {
  it("still sends people to the live replicas (the backup servers), not HAProxy's 503", async () => {
    // Both stop at once: readiness 503, pages still served for the drain (a minute here), as
    // when every replica is unready together because the shared store is down with sign-in on.
    for (const replica of replicas) replica.process.kill("SIGTERM");
    await waitFor(
      async () => (await Promise.all(replicas.map(async (r) => (await request(`${r.url}/api/ready`)).status))).every((s) => s === 503),
      10_000,
      () => "the replicas did not become unready",
    );
    await waitFor(
      async () => /portal\/web-a is DOWN/.test(balancer.output()) && /portal\/web-b is DOWN/.test(balancer.output()),
      20_000,
      () => `the balancer did not take the replicas out:\n${balancer.output()}`,
    );
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await request(`${balancer.url}/api/config`, { localAddress: "127.0.0.6", headers: { "X-Request-ID": `backup-${i}` } }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    // Answered by the backups, each in turn.
    await logged(ids("backup", 4), { replicas: true });
    const servers = [0, 1, 2, 3].map((i) => / portal\/(\S+) /.exec(balancerLog(`backup-${i}`) ?? "")?.[1]);
    expect(new Set(servers)).toEqual(new Set(["web-a-live", "web-b-live"]));
  });
});

/**
 * A POST that declares `length` bytes of body and sends only the headers and a little of it, over
 * a raw connection (a client that means to send that much); the status line of the answer, and
 * the request id the answer or the balancer's log names.
 */
function postDeclaring(url: string, length: number): Promise<{ status: number; requestId: string }> {
  const { hostname, port } = new URL(url);
  const requestId = `big-body-${length}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST /crib-search/search HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Request-ID: ${requestId}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n${"q=".padEnd(1024, "x")}`,
      );
    });
    let head = "";
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer within 10 s")));
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      if (status) {
        socket.destroy();
        resolve({ status: Number(status), requestId });
      }
    });
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`closed without an answer: ${JSON.stringify(head)}`)));
  });
}
