'use strict';
// The TypeScript declarations (index.d.ts, mcp.d.ts) type-check a user's
// code, and refuse the misuses types/check.ts marks with @ts-expect-error.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { requirePeer } = require('./support.js');

test('the declarations type-check as a user meets them', () => {
  let tsc;
  try {
    tsc = requirePeer.resolve('typescript/bin/tsc');
  } catch (e) {
    throw new Error(`typescript is needed by this test: install it where PITH_NODE_MODULES points, as .ci/run does (${e.message})`);
  }
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'types')], { encoding: 'utf8' });
  assert.equal(r.status, 0, `tsc:\n${r.stdout}${r.stderr}`);
});
