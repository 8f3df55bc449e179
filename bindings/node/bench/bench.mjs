// pith against the reference TOON implementation, in one process, round-robin.
//
//   node bindings/node/bench/bench.mjs [--rounds N] [--check] [DATASET]
//
// Needs the package built (npm install ./bindings/node) and the peer
// (npm install @toon-format/toon@4.4.0) where Node resolves it from here, or
// in the folder named by PITH_BENCH_MODULES. DATASET defaults to
// ../shared/datasets/generated/gen-flat-50k.json beside the checkout.
//
// Encoding and decoding are timed in two phases, one after the other. In
// each, every round times every contestant once, in turn, so load on the
// machine falls on all of them alike; the report gives each one's median
// and spread (min-max), and each comparison as the median of the per-round
// ratios. (Interleaved, the decoders' garbage, some 100 MB a round from
// toon.decode, is collected during whichever encoder runs next.)
// --check exits 1 when a target is missed: encode at least 5x and decode at
// least 10x @toon-format/toon 4.4.0.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const check = args.includes('--check');
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 21;
const positional = args.filter((a, i) => !a.startsWith('--') && (roundsAt < 0 || i !== roundsAt + 1));
const dataset = positional[0] ?? resolve(here, '../../../../shared/datasets/generated/gen-flat-50k.json');

const require = createRequire(process.env.PITH_BENCH_MODULES ? join(resolve(process.env.PITH_BENCH_MODULES), 'x.js') : import.meta.url);
const toon = require('@toon-format/toon');
const pith = createRequire(import.meta.url)('../index.js');

/** The version of the installed package `name`. */
function versionOf(name) {
  let dir = dirname(require.resolve(name));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.name === name) return pkg.version;
    }
    if (dirname(dir) === dir) return '?';
    dir = dirname(dir);
  }
}

const text = readFileSync(dataset, 'utf8');
const x = JSON.parse(text);
const toonText = pith.encode(x, { format: 'toon' });
if (toonText !== toon.encode(x)) {
  console.error('pith and @toon-format/toon write different TOON for this input');
  process.exit(2);
}
if (JSON.stringify(pith.decode(toonText)) !== JSON.stringify(x)) {
  console.error('pith.decode does not give the input back');
  process.exit(2);
}

const phases = [
  {
    'pith.encode(toon)': () => pith.encode(x, { format: 'toon' }),
    'toon.encode': () => toon.encode(x),
    'JSON.stringify': () => JSON.stringify(x),
  },
  {
    'pith.decode(toon)': () => pith.decode(toonText),
    'toon.decode': () => toon.decode(toonText),
    'JSON.parse': () => JSON.parse(text),
  },
];
const comparisons = [
  ['pith.encode(toon)', 'toon.encode', 5],
  ['pith.encode(toon)', 'JSON.stringify', null],
  ['pith.decode(toon)', 'toon.decode', 10],
  ['pith.decode(toon)', 'JSON.parse', null],
];

const times = {};
for (const contestants of phases) {
  for (const f of Object.values(contestants)) f(); // warm up the JIT and caches
  for (const k of Object.keys(contestants)) times[k] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [name, f] of Object.entries(contestants)) {
      const t = process.hrtime.bigint();
      f();
      times[name].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    globalThis.gc?.();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};
const mb = Buffer.byteLength(text) / 1e6;
console.log(
  `${dataset.split('/').pop()}: ${mb.toFixed(2)} MB of JSON, ${(Buffer.byteLength(toonText) / 1e6).toFixed(2)} MB of TOON, ` +
    `${rounds} rounds, Node ${process.version}, @toon-format/toon ${versionOf('@toon-format/toon')}`,
);
for (const [name, ts] of Object.entries(times)) {
  console.log(`  ${name.padEnd(20)} median ${median(ts).toFixed(2).padStart(8)} ms   (min ${Math.min(...ts).toFixed(2)}, max ${Math.max(...ts).toFixed(2)})`);
}
let failed = false;
for (const [mine, peer, target] of comparisons) {
  const ratios = times[mine].map((m, i) => times[peer][i] / m);
  const r = median(ratios);
  let verdict = '';
  if (target !== null) {
    const ok = r >= target;
    failed ||= !ok;
    verdict = `  target >= ${target}x: ${ok ? 'ok' : 'MISSED'}`;
  }
  console.log(
    `  ${mine} vs ${peer}: ${r.toFixed(2)}x faster (per-round ratios ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})${verdict}`,
  );
}
process.exit(check && failed ? 1 : 0);
