#!/usr/bin/env node
// Sits between pith and a real MCP server and records, byte for byte, what
// the server received (PREFIX.in) and what it wrote (PREFIX.out), so a test
// can compare both with what the client sent and received.
//
//   node record.mjs PREFIX -- COMMAND [ARGS...]
//
// The server's stderr passes through; SIGTERM, SIGINT and SIGHUP are passed
// on to it; its exit status becomes this script's (a signal that ended it
// is re-raised on this script).
import { spawn } from "node:child_process";
import fs from "node:fs";

const argv = process.argv.slice(2);
const sep = argv.indexOf("--");
if (sep !== 1 || argv.length < 3) {
  process.stderr.write("usage: record.mjs PREFIX -- COMMAND [ARGS...]\n");
  process.exit(2);
}
const prefix = argv[0];
const [command, ...args] = argv.slice(2);
const inLog = fs.openSync(prefix + ".in", "w");
const outLog = fs.openSync(prefix + ".out", "w");

const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.on("data", (chunk) => {
  fs.writeSync(inLog, chunk);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
// The server may exit while bytes are still on their way to it.
child.stdin.on("error", () => {});
child.stdout.on("data", (chunk) => {
  fs.writeSync(outLog, chunk);
  process.stdout.write(chunk);
});

const forwarded = ["SIGTERM", "SIGINT", "SIGHUP"];
for (const sig of forwarded) process.on(sig, () => child.kill(sig));

let stdoutDone = false;
let exit = null;
child.stdout.on("end", () => {
  stdoutDone = true;
  finish();
});
child.on("exit", (code, signal) => {
  exit = { code, signal };
  finish();
});
function finish() {
  if (!stdoutDone || exit === null) return;
  fs.closeSync(inLog);
  fs.closeSync(outLog);
  process.stdout.write("", () => {
    if (exit.signal) {
      for (const sig of forwarded) process.removeAllListeners(sig);
      process.kill(process.pid, exit.signal);
    }
    else process.exit(exit.code ?? 1);
  });
}
