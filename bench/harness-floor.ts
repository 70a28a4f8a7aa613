/**
 * The benchmark's own floor, for `bench:overhead`: a bare Node HTTP server that answers every
 * request the way the portal would, minus the portal. It sends the portal's Fusion query to the
 * stand-in over a kept-alive connection, reads and parses the answer, and answers with the bytes
 * of the portal's page. Loaded like the portal, it measures what the stand-in's timers, loopback
 * HTTP and the load generator cost on this machine, which `p − 100 ms` counts against the portal.
 *
 *   tsx bench/harness-floor.ts <port> <fusion query URL> <page file>
 */
import fs from "node:fs";
import http from "node:http";

const [port, fusionUrl, pageFile] = process.argv.slice(2);
if (!port || !fusionUrl || !pageFile) {
  console.error("Usage: tsx bench/harness-floor.ts <port> <fusion query URL> <page file>");
  process.exit(2);
}
const page = fs.readFileSync(pageFile);
const fusion = new URL(fusionUrl);
const agent = new http.Agent({ keepAlive: true });

http
  .createServer((_req, res) => {
    http
      .get({ host: fusion.hostname, port: fusion.port, path: fusion.pathname + fusion.search, agent }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (part: Buffer) => parts.push(part));
        answer.on("end", () => {
          JSON.parse(Buffer.concat(parts).toString("utf8"));
          res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": page.length });
          res.end(page);
        });
      })
      .on("error", (error) => {
        res.writeHead(502, { "Content-Type": "text/plain" });
        res.end(String(error));
      });
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
