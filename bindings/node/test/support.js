'use strict';
// What the tests share: the package under test, the modules they drive it
// with, the `pith` CLI of this checkout and the datasets.
//
//   PITH_NODE_MODULES  a node_modules folder holding @pith-format/pith as
//                      installed (npm install ./bindings/node) and the test
//                      peers (@modelcontextprotocol/sdk, typescript); without it, the
//                      package is this folder and peers resolve from here.
//   PITH_BIN           the CLI; without it, a release build made here.
//   PITH_DATASETS      the datasets; without it, ../shared/datasets beside
//                      the checkout.

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');

const PACKAGE = path.resolve(__dirname, '..');
const ROOT = path.resolve(PACKAGE, '..', '..');

const modules = process.env.PITH_NODE_MODULES ? path.resolve(process.env.PITH_NODE_MODULES) : null;
const requirePeer = createRequire(path.join(modules ?? PACKAGE, 'x.js'));

/** The package as installed, or this folder. */
const pith = modules ? requirePeer('@pith-format/pith') : require(PACKAGE);
/** Its MCP helper, `@pith-format/pith/mcp`. */
const mcp = modules ? requirePeer('@pith-format/pith/mcp') : require(path.join(PACKAGE, 'mcp.js'));

/** A test peer by name, with what to do when it is missing. */
function peer(name) {
  try {
    return requirePeer(name);
  } catch (e) {
    throw new Error(
      `${name} is needed by the tests: install it where PITH_NODE_MODULES points ` +
        `(npm install ${name}), as .ci/run does (${e.message})`,
    );
  }
}

let cliPath = null;
/** The CLI of this checkout. */
function cli() {
  if (cliPath !== null) return cliPath;
  if (process.env.PITH_BIN) {
    cliPath = path.resolve(process.env.PITH_BIN);
  } else {
    execFileSync('cargo', ['build', '--release', '-q', '-p', 'pith-cli'], { cwd: ROOT, stdio: 'inherit' });
    cliPath = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'release', 'pith');
  }
  if (!fs.existsSync(cliPath)) throw new Error(`no pith binary at ${cliPath}`);
  return cliPath;
}

/** Runs the CLI: `{ status, stdout, stderr }` as Buffers. */
function run(args, input) {
  const r = spawnSync(cli(), args, { input, maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return r;
}

function datasetsDir() {
  const d = process.env.PITH_DATASETS
    ? path.resolve(process.env.PITH_DATASETS)
    : path.join(ROOT, '..', 'shared', 'datasets');
  if (!fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`datasets not found at ${d}: put the shared folder beside the checkout or set PITH_DATASETS`);
  }
  return d;
}

/** Every .json file under the datasets, recursively, sorted. */
function datasetFiles() {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.json')) out.push(p);
    }
  };
  walk(datasetsDir());
  return out.sort();
}

/** `v` with every object as a list of its entries, so that deepStrictEqual sees key order. */
function ordered(v) {
  if (Array.isArray(v)) return v.map(ordered);
  if (v !== null && typeof v === 'object' && !(v instanceof pith.ExactNumber)) {
    return Object.keys(v).map((k) => [k, ordered(v[k])]);
  }
  return v;
}

module.exports = { pith, mcp, peer, cli, run, datasetFiles, ordered, PACKAGE, ROOT, requirePeer };
