#!/usr/bin/env node
// A fault-injecting MCP server on stdio, speaking raw newline-delimited
// JSON-RPC so that every byte it writes is under the test's control.
//
// Tools:
//   rows {n, tag}   pretty-printed JSON array of n uniform records (rewritable)
//   echo {text}     the text as is
//   big {bytes, shape?}  a JSON array of records at least `bytes` long, compact
//                   (shape "issues": nested records, as a tracker's)
//   verbatim {result}  the JSON text `result`, written as the result byte
//                   for byte (numbers, escapes and key order as given)
//
// Flags:
//   --log FILE            append every line written to stdout to FILE
//   --pidfile FILE        write the process id to FILE at start
//   --stderr TEXT         write TEXT and a newline to stderr at start
//   --garbage             write a non-JSON line before every answer
//   --hold N              keep tools/call requests until N have arrived, then
//                         answer them all in a shuffled order
//   --die-after N         on the Nth tools/call, kill itself with SIGKILL
//                         without answering any call
//   --exit-after N        like --die-after, but exit with status 0
//   --raw-after N TEXT    on the Nth tools/call, write TEXT exactly as given
//                         (no newline is added) without answering any call,
//                         then exit with the --exit-code status (with
//                         --ignore-eof, keep running)
//   --exit-code N         exit with status N when stdin ends
//   --ignore-eof          keep running when stdin ends
//   --ignore-term         ignore SIGTERM
//   --orphan FILE         start a process that keeps stdout open for 30 s
//                         after this one exits; its pid goes to FILE
//   --signal-log FILE     on SIGINT, SIGHUP or SIGTERM, write the signal's
//                         name to FILE and exit 0
//   --batch               answer a batch of requests with one batch
//
// A tools/call with a `task` parameter is answered with a task; tasks/result
// then answers with the call's result.
import fs from "node:fs";
import readline from "node:readline";

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
// The `n`th word after the flag `name` (the first unless told).
const value = (name, n = 1) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + n] : undefined;
};

const logFile = value("--log");
const log = logFile ? fs.openSync(logFile, "a") : null;
const hold = Number(value("--hold") ?? 0);
const dieAfter = Number(value("--die-after") ?? 0);
const exitAfter = Number(value("--exit-after") ?? 0);
const rawAfter = Number(value("--raw-after") ?? 0);
const exitCode = Number(value("--exit-code") ?? 0);

if (value("--signal-log")) {
  for (const sig of ["SIGINT", "SIGHUP", "SIGTERM"]) {
    process.on(sig, () => {
      fs.writeFileSync(value("--signal-log"), sig);
      process.exit(0);
    });
  }
}
if (value("--pidfile")) fs.writeFileSync(value("--pidfile"), String(process.pid));
if (value("--stderr")) process.stderr.write(value("--stderr") + "\n");
if (flag("--ignore-term")) process.on("SIGTERM", () => {});
if (flag("--ignore-eof")) setInterval(() => {}, 1 << 30);
if (value("--orphan")) {
  const { spawn } = await import("node:child_process");
  const orphan = spawn("sleep", ["30"], { stdio: ["ignore", "inherit", "ignore"], detached: true });
  fs.writeFileSync(value("--orphan"), String(orphan.pid));
  orphan.unref();
}

let pendingOut = [];
let flushing = false;
function send(text) {
  const line = text + "\n";
  if (log !== null) fs.writeSync(log, line);
  pendingOut.push(line);
  if (!flushing) {
    flushing = true;
    setImmediate(() => {
      flushing = false;
      const chunk = pendingOut.join("");
      pendingOut = [];
      process.stdout.write(chunk);
    });
  }
}

let batchOut = null;
function answer(id, result) {
  if (flag("--garbage")) send("this line is not JSON {");
  if (result && result.__verbatim !== undefined) {
    const line = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.__verbatim}}`;
    if (batchOut) batchOut.push(line);
    else send(line);
    return;
  }
  const line = JSON.stringify({ jsonrpc: "2.0", id, result });
  if (batchOut) batchOut.push(line);
  else send(line);
}

function rows(n, tag) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({ id: i, tag, name: `row-${i}`, active: i % 2 === 0, score: i + 0.25 });
  }
  return out;
}

function callResult(params) {
  const args = params.arguments ?? {};
  switch (params.name) {
    case "rows":
      return { content: [{ type: "text", text: JSON.stringify(rows(args.n ?? 10, args.tag ?? ""), null, 2) }] };
    case "verbatim":
      return { __verbatim: String(args.result) };
    case "echo":
      return { content: [{ type: "text", text: String(args.text ?? "") }] };
    case "big": {
      const parts = [];
      let size = 2;
      // `shape: "issues"` writes records shaped as a tracker's issues
      // (a nested user, a list of labels, a timestamp); flat ones otherwise.
      const record = args.shape === "issues"
        ? (i) => ({
            id: i,
            title: `Issue number ${i} about the parser`,
            state: i % 2 ? "closed" : "open",
            user: { login: `user${i % 50}`, id: 1000 + (i % 50) },
            labels: ["bug", `area-${i % 7}`],
            created_at: `2026-11-${String(1 + (i % 28)).padStart(2, "0")}T10:${String(i % 60).padStart(2, "0")}:00Z`,
            comments: i % 9,
          })
        : (i) => ({ id: i, name: `record-${i}`, note: "x".repeat(40), ok: true });
      for (let i = 0; size < (args.bytes ?? 0); i++) {
        const s = JSON.stringify(record(i));
        parts.push(s);
        size += s.length + 1;
      }
      return { content: [{ type: "text", text: "[" + parts.join(",") + "]" }] };
    }
    default:
      return { content: [{ type: "text", text: `unknown tool ${params.name}` }], isError: true };
  }
}

let calls = 0;
let held = [];
const tasks = new Map();

function shuffle(a) {
  // A fixed linear congruential sequence: shuffled, yet the same every run.
  let seed = 12345;
  for (let i = a.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function onMessage(msg) {
  if (msg.method === "initialize") {
    answer(msg.id, {
      protocolVersion: msg.params?.protocolVersion ?? "2025-06-18",
      capabilities: { tools: {} },
      serverInfo: { name: "fake", version: "1.0.0" },
    });
  } else if (msg.method === "tools/list") {
    answer(msg.id, {
      tools: ["rows", "echo", "big", "verbatim"].map((name) => ({ name, inputSchema: { type: "object" } })),
    });
  } else if (msg.method === "tools/call" && msg.params?.task) {
    const taskId = `task-${msg.id}`;
    tasks.set(taskId, msg.params);
    const now = "2026-01-01T00:00:00Z";
    answer(msg.id, {
      task: { taskId, status: "working", createdAt: now, lastUpdatedAt: now, ttl: 60000 },
    });
  } else if (msg.method === "tasks/result") {
    const params = tasks.get(msg.params?.taskId);
    if (params) answer(msg.id, callResult(params));
    else send(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32602, message: "no such task" } }));
  } else if (msg.method === "tools/call") {
    calls += 1;
    if (dieAfter && calls >= dieAfter) process.kill(process.pid, "SIGKILL");
    if (exitAfter && calls >= exitAfter) process.exit(0);
    if (rawAfter && calls === rawAfter) {
      // Whatever answers are queued go first, then the raw bytes.
      const chunk = pendingOut.join("") + value("--raw-after", 2);
      pendingOut = [];
      process.stdout.write(chunk, () => {
        if (!flag("--ignore-eof")) process.exit(exitCode);
      });
    }
    if (dieAfter || exitAfter || rawAfter) return;
    if (hold) {
      held.push(msg);
      if (held.length >= hold) {
        for (const m of shuffle(held)) answer(m.id, callResult(m.params));
        held = [];
      }
    } else {
      answer(msg.id, callResult(msg.params));
    }
  } else if (msg.method === "ping") {
    answer(msg.id, {});
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (line.trim() === "") return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (Array.isArray(msg) && flag("--batch")) {
    batchOut = [];
    for (const m of msg) onMessage(m);
    const lines = batchOut;
    batchOut = null;
    if (lines.length > 0) send("[" + lines.join(",") + "]");
    return;
  }
  for (const m of Array.isArray(msg) ? msg : [msg]) onMessage(m);
});
rl.on("close", () => {
  if (flag("--ignore-eof")) return;
  // Let queued answers reach stdout before exiting.
  setImmediate(() => process.stdout.write("", () => process.exit(exitCode)));
});
