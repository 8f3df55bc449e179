#!/usr/bin/env node
// A fault-injecting MCP server over HTTP on 127.0.0.1, speaking the
// streamable HTTP transport (or, with --legacy, the older HTTP+SSE one)
// by hand, so that every fault is under the test's control. It prints its
// port on stdout, then serves until stdin closes.
//
// Tools: rows {n, tag} (pretty JSON of n records, as fake-server.mjs),
// slow {} (answers after 60 s).
//
// Flags:
//   --json            answer POSTs with application/json, not SSE
//   --status N        answer every tools/call with HTTP status N
//   --drop            break the SSE stream of a tools/call after its first
//                     event (a progress notification), before the answer
//   --resumable       number SSE events, and replay the rest of a broken
//                     stream on a GET with Last-Event-ID
//   --expire N        forget the session after N tools/calls (404), and
//                     accept a new initialize
//   --legacy          only the HTTP+SSE transport: GET /sse opens the stream,
//                     whose first event names where to POST
//   --log FILE        append "METHOD path session" for every request to FILE
import fs from "node:fs";
import http from "node:http";

const argv = process.argv.slice(2);
const flag = (n) => argv.includes(n);
const value = (n) => {
  const i = argv.indexOf(n);
  return i >= 0 ? argv[i + 1] : undefined;
};
const log = value("--log");
const expireAfter = Number(value("--expire") ?? 0);
const status = Number(value("--status") ?? 0);

let session = null;
let sessions = 0;
let calls = 0;
let nextEvent = 1;
const replay = new Map(); // event id -> [later events]
let legacyStream = null;

function rows(n, tag) {
  const out = [];
  for (let i = 0; i < n; i++) out.push({ id: i, tag, name: `row-${i}`, active: i % 2 === 0, score: i + 0.25 });
  return out;
}

function handle(msg) {
  if (msg.method === "initialize") {
    return { protocolVersion: msg.params?.protocolVersion ?? "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "http-fake", version: "1" } };
  }
  if (msg.method === "tools/list") {
    return { tools: ["rows", "slow"].map((name) => ({ name, inputSchema: { type: "object" } })) };
  }
  if (msg.method === "tools/call" && msg.params.name === "rows") {
    const a = msg.params.arguments ?? {};
    return { content: [{ type: "text", text: JSON.stringify(rows(a.n ?? 10, a.tag ?? ""), null, 2) }] };
  }
  if (msg.method === "ping") return {};
  return null;
}

function sseEvent(res, data, id) {
  res.write((id !== undefined ? `id: ${id}\n` : "") + `event: message\ndata: ${data}\n\n`);
}

const server = http.createServer((req, res) => {
  const sid = req.headers["mcp-session-id"];
  if (log) fs.appendFileSync(log, `${req.method} ${req.url} ${sid ?? "-"} ${req.headers["mcp-protocol-version"] ?? "-"} ${req.headers["x-token"] ?? "-"}\n`);
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    if (flag("--legacy")) return legacy(req, res, body);
    if (req.method === "DELETE") {
      session = null;
      res.writeHead(200).end();
      return;
    }
    if (req.method === "GET") {
      const last = req.headers["last-event-id"];
      if (last && replay.has(last)) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (const [id, data] of replay.get(last)) sseEvent(res, data, id);
        res.end();
        return;
      }
      res.writeHead(405).end();
      return;
    }
    const msg = JSON.parse(body);
    if (msg.method === "initialize") {
      sessions += 1;
      session = `s-${sessions}`;
    } else if (sid !== session) {
      res.writeHead(sid ? 404 : 400, { "content-type": "application/json" }).end(
        JSON.stringify({ jsonrpc: "2.0", id: msg.id ?? null, error: { code: -32001, message: "Session not found" } }),
      );
      return;
    }
    if (msg.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (msg.method === "tools/call") {
      calls += 1;
      if (status) {
        res.writeHead(status, { "content-type": "text/plain" }).end(`injected failure ${status}`);
        return;
      }
      if (expireAfter && calls === expireAfter) session = "forgotten";
      if (msg.params.name === "slow") return; // never answered
    }
    const answer = JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: handle(msg) });
    const headers = msg.method === "initialize" ? { "mcp-session-id": session } : {};
    if (flag("--json")) {
      res.writeHead(200, { ...headers, "content-type": "application/json" }).end(answer);
      return;
    }
    res.writeHead(200, { ...headers, "content-type": "text/event-stream" });
    if (msg.method === "tools/call" && flag("--drop")) {
      const progress = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } });
      const first = flag("--resumable") ? String(nextEvent++) : undefined;
      sseEvent(res, progress, first);
      if (first) replay.set(first, [[String(nextEvent++), answer]]);
      setTimeout(() => res.socket.destroy(), 50);
      return;
    }
    sseEvent(res, answer, flag("--resumable") ? String(nextEvent++) : undefined);
    res.end();
  });
});

function legacy(req, res, body) {
  if (req.method === "GET" && req.url === "/sse") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("event: endpoint\ndata: /messages?sessionId=legacy-1\n\n");
    legacyStream = res;
    return;
  }
  if (req.method === "POST" && req.url.startsWith("/messages")) {
    const msg = JSON.parse(body);
    res.writeHead(202).end();
    if (msg.id !== undefined && legacyStream) {
      sseEvent(legacyStream, JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: handle(msg) }));
    }
    return;
  }
  res.writeHead(405).end();
}

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
