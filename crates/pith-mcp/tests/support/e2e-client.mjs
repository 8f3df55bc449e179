#!/usr/bin/env node
// Drives a real MCP server with the official TypeScript client, through
// whatever command it is given (the server itself, or pith mcp in front of
// it), and writes down what happened.
//
//   node e2e-client.mjs CONFIG_JSON
//
// CONFIG_JSON: {"scenario": "memory"|"filesystem"|"everything"|"python",
//               "command": [...], "env": {...}, "log": PREFIX, "root": DIR}
//
// The transport is a stdio transport of its own that records every byte
// the client sends (PREFIX.in) and receives (PREFIX.out); everything else
// is the SDK's Client, including its outputSchema validation. The outcome
// of every call goes to PREFIX.json; the exit status is 0 when the script
// ran to its end, whatever the calls did.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const config = JSON.parse(process.argv[2]);

class RecordingStdioTransport {
  constructor(command, env, prefix) {
    this.command = command;
    this.env = env;
    this.inLog = fs.openSync(prefix + ".in", "w");
    this.outLog = fs.openSync(prefix + ".out", "w");
  }

  async start() {
    const [cmd, ...args] = this.command;
    this.child = spawn(cmd, args, {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, ...this.env },
    });
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => {
        resolve({ code, signal });
        this.onclose?.();
      });
    });
    this.child.on("error", (e) => this.onerror?.(e));
    this.child.stdin.on("error", (e) => this.onerror?.(e));
    let pending = [];
    this.child.stdout.on("data", (chunk) => {
      fs.writeSync(this.outLog, chunk);
      let start = 0;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
        pending.push(chunk.subarray(start, i));
        const line = Buffer.concat(pending).toString("utf8");
        pending = [];
        start = i + 1;
        if (line.trim() === "") continue;
        let message;
        try {
          message = JSON.parse(line);
        } catch (e) {
          this.onerror?.(e);
          continue;
        }
        this.onmessage?.(message);
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    });
  }

  async send(message) {
    const line = JSON.stringify(message) + "\n";
    fs.writeSync(this.inLog, line);
    this.child.stdin.write(line);
  }

  // The official SDK's stdio shutdown: close stdin, wait 2 s, SIGTERM,
  // wait 2 s, SIGKILL.
  async close() {
    this.child.stdin.end();
    const wait = (ms) =>
      Promise.race([this.exited, new Promise((r) => setTimeout(r, ms).unref())]);
    await wait(2000);
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGTERM");
      await wait(2000);
    }
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGKILL");
    }
  }
}

// transportErrors are the client's complaints about messages, such as a
// progress notification that arrives after its call's answer (a race in the
// everything server); they are kept apart because they vary from run to run.
const outcome = { tools: [], calls: [], requests: [], transportErrors: [], progress: 0, exit: null };

const client = new Client(
  { name: "pith-e2e", version: "1.0.0" },
  {
    capabilities: {
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {} },
    },
  },
);
client.setRequestHandler(ListRootsRequestSchema, async () => ({
  roots: config.root ? [{ uri: "file://" + config.root, name: "fixture" }] : [],
}));
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  model: "e2e-model",
  role: "assistant",
  content: { type: "text", text: "a sampled answer" },
}));
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
client.onerror = (e) => outcome.transportErrors.push(String(e));

async function call(name, args = {}, options = {}) {
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, options);
    outcome.calls.push({ name, ok: true, isError: result.isError === true });
  } catch (e) {
    outcome.calls.push({ name, ok: false, error: String(e?.message ?? e) });
  }
}

async function request(method, fn) {
  try {
    await fn();
    outcome.requests.push({ method, ok: true });
  } catch (e) {
    outcome.requests.push({ method, ok: false, error: String(e?.message ?? e) });
  }
}

const scenarios = {
  async memory() {
    const entities = Array.from({ length: 25 }, (_, i) => ({
      name: `person-${i}`,
      entityType: i % 3 === 0 ? "organization" : "person",
      observations: [
        `works on project ${i % 5}`,
        `joined in ${2000 + i}`,
        `speaks ${["Danish", "English", "French"][i % 3]}`,
      ],
    }));
    await call("create_entities", { entities });
    const relations = Array.from({ length: 20 }, (_, i) => ({
      from: `person-${i}`,
      to: `person-${(i * 7 + 3) % 25}`,
      relationType: i % 2 === 0 ? "knows" : "works_with",
    }));
    await call("create_relations", { relations });
    await call("add_observations", {
      observations: [{ entityName: "person-1", contents: ["likes tea", "owns a bicycle"] }],
    });
    await call("read_graph");
    await call("search_nodes", { query: "project 1" });
    await call("open_nodes", { names: ["person-1", "person-2", "person-3"] });
    await call("delete_observations", {
      deletions: [{ entityName: "person-1", observations: ["likes tea"] }],
    });
    await call("delete_relations", { relations: relations.slice(0, 2) });
    await call("delete_entities", { entityNames: ["person-24"] });
    await call("read_graph");
  },

  async filesystem() {
    const r = config.root;
    await call("list_allowed_directories");
    await call("list_directory", { path: r });
    await call("list_directory_with_sizes", { path: r, sortBy: "name" });
    await call("directory_tree", { path: r });
    await call("read_text_file", { path: `${r}/data.json` });
    await call("read_text_file", { path: `${r}/notes.txt`, head: 2 });
    await call("read_file", { path: `${r}/data.json` });
    await call("read_multiple_files", { paths: [`${r}/data.json`, `${r}/notes.txt`] });
    await call("read_media_file", { path: `${r}/pixel.png` });
    await call("get_file_info", { path: `${r}/notes.txt` });
    await call("search_files", { path: r, pattern: "*.json" });
    await call("write_file", { path: `${r}/new.txt`, content: "hello\n" });
    await call("edit_file", {
      path: `${r}/notes.txt`,
      edits: [{ oldText: "alpha", newText: "beta" }],
    });
    await call("create_directory", { path: `${r}/made` });
    await call("move_file", { source: `${r}/new.txt`, destination: `${r}/made/new.txt` });
    await call("directory_tree", { path: r });
    await call("read_text_file", { path: `${r}/missing.txt` });
  },

  // py_server.py (the official Python SDK's MCPServer): every tool declares
  // an outputSchema, which this client validates structuredContent against.
  async python() {
    await call("list_issues", { count: 40 });
    await call("search_issues", { query: "parser", count: 30 });
    await call("count_issues");
    await call("describe", { name: "pith" });
    await call("list_issues", { count: 60 });
  },

  async everything() {
    await call("echo", { message: "hello through the proxy" });
    await call("get-annotated-message", { messageType: "error", includeImage: true });
    await call("get-env");
    await call("get-resource-links", { count: 3 });
    await call("get-resource-reference");
    await call("get-structured-content", { location: "Chicago" });
    await call("get-sum", { a: 2, b: 40 });
    await call("get-tiny-image");
    await call("gzip-file-as-resource", {
      name: "hello.txt.gz",
      data: "data:text/plain;base64," + Buffer.from("hello ".repeat(50)).toString("base64"),
      outputType: "resource",
    });
    await call(
      "trigger-long-running-operation",
      { duration: 1, steps: 3 },
      { onprogress: () => (outcome.progress += 1) },
    );
    await call("trigger-sampling-request", { prompt: "say hi", maxTokens: 10 });
    await call("trigger-elicitation-request");
    await call("get-roots-list");
    await call("toggle-simulated-logging");
    await call("toggle-simulated-logging");
    await request("tasks (simulate-research-query)", async () => {
      const stream = client.experimental.tasks.callToolStream({
        name: "simulate-research-query",
        arguments: { topic: "token-lean formats" },
      });
      let last = null;
      for await (const message of stream) last = message;
      if (last?.type !== "result") throw new Error(`task ended with ${last?.type}: ${last?.error}`);
      outcome.calls.push({ name: "simulate-research-query", ok: true, isError: last.result.isError === true });
    });
    await request("resources/list", async () => {
      const { resources } = await client.listResources();
      if (resources.length > 0) await client.readResource({ uri: resources[0].uri });
    });
    await request("prompts/list", async () => {
      await client.listPrompts();
      await client.getPrompt({ name: "simple-prompt" });
    });
    await request("ping", () => client.ping());
  },
};

const transport = new RecordingStdioTransport(config.command, config.env ?? {}, config.log);
await client.connect(transport);
await request("tools/list", async () => {
  const { tools } = await client.listTools();
  outcome.tools = tools.map((t) => t.name);
});
await scenarios[config.scenario]();
await client.close();
outcome.exit = await transport.exited;
fs.writeFileSync(config.log + ".json", JSON.stringify(outcome, null, 2));
