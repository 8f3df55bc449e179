'use strict';
// The package's install script: builds the native module (pith.node) from
// src/ with cargo, through @napi-rs/cli.
//
// `npm install ./bindings/node` from a project outside the checkout links
// the package and installs none of its dependencies, so the CLI may not be
// beside it: it is then run with `npm exec`, which fetches the pinned
// version from the registry. Cargo writes to $CARGO_TARGET_DIR, or to the
// bindings workspace's own target/ folder.

const { spawnSync } = require('node:child_process');
const path = require('node:path');

const here = __dirname;
const CLI = '@napi-rs/cli';
const VERSION = require('./package.json').dependencies[CLI];

const targetDir = process.env.CARGO_TARGET_DIR || path.join(here, '..', 'target');
const args = ['build', '--release', '--dts', 'native.d.ts', '--target-dir', targetDir];

/** The path of the CLI's script when it is installed where this package sees it. */
function localCli() {
  try {
    const manifest = require.resolve(`${CLI}/package.json`, { paths: [here] });
    const bin = require(manifest).bin;
    return path.join(path.dirname(manifest), typeof bin === 'string' ? bin : bin.napi);
  } catch {
    return null;
  }
}

function run(command, argv) {
  const r = spawnSync(command, argv, { cwd: here, stdio: 'inherit' });
  if (r.error) {
    console.error(`@pith-format/pith: could not run ${command}: ${r.error.message}`);
    return 1;
  }
  return r.status === null ? 1 : r.status;
}

const cli = localCli();
let status;
if (cli !== null) {
  status = run(process.execPath, [cli, ...args]);
} else {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  status = run(npm, ['exec', '--yes', `--package=${CLI}@${VERSION}`, '--', 'napi', ...args]);
}
if (status !== 0) {
  console.error(
    '@pith-format/pith: building the native module failed. It needs Rust (cargo 1.95 or later, ' +
      'https://rustup.rs) and the checkout this package is in (it builds ../../crates/pith).',
  );
}
process.exit(status);
