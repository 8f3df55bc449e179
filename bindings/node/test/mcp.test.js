'use strict';
// @pith-format/pith/mcp drives a real MCP server (mcp-server.js, written
// with the official TypeScript SDK); the SDK's own client reads it over stdio.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { pith, mcp, peer } = require('./support.js');
const { orders } = require('./orders.js');

const { Client } = peer('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = peer('@modelcontextprotocol/sdk/client/stdio.js');

const SERVER = path.join(__dirname, 'mcp-server.js');

let client;
test.before(async () => {
  client = new Client({ name: 'pith-test-client', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], env: { ...process.env }, stderr: 'inherit' });
  await client.connect(transport);
});
test.after(async () => {
  await client.close();
});

const call = (name, args = {}) => client.callTool({ name, arguments: args });

test('a tool result is pith text with the proxy\'s _meta', async () => {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'list_orders');
  assert.equal(tool.inputSchema.properties.n.type, 'integer');
  assert.equal(tool.outputSchema, undefined);
  const result = await call('list_orders', { n: 25 });
  assert.equal(result.content.length, 1);
  const [item] = result.content;
  assert.deepEqual(item._meta, { 'pith/encoding': 'pith' });
  assert.equal(item.text, pith.encode(orders(25)));
  assert.deepStrictEqual(pith.decode(item.text, { bigint: true }), orders(25));
  // A third fewer tokens than compact JSON, every digit of the BigInts kept.
  assert.ok(pith.countTokens(item.text) < 0.7 * pith.countTokens(pith.encode(orders(25), { format: 'json' })));
  assert.equal(result.structuredContent, undefined);
  assert.ok(!result.isError);
});

test('a budget cuts with receipts, and the cursor continues', async () => {
  const result = await call('list_orders_within_budget', { n: 200 });
  const [item] = result.content;
  assert.equal(item._meta['pith/budget'], 'cut');
  assert.ok(['pith', 'toon', 'hoisted', 'json'].includes(item._meta['pith/encoding']));
  assert.ok(pith.countTokens(item.text) <= 120);
  const doc = pith.decode(item.text, { bigint: true });
  assert.equal(doc.read_output.fits, true);
  const receipt = doc.result_omitted;
  assert.equal(receipt.total, 200);
  assert.equal(receipt.shown + receipt.omitted, 200);
  const page = pith.decode(pith.encode(orders(200), { budget: 120, cursor: receipt.cursor }), { bigint: true });
  assert.deepStrictEqual(page.result[0], orders(200)[receipt.shown]);
});

test('a small result is left as compact JSON, without _meta', async () => {
  const result = await call('small');
  assert.deepEqual(result.content, [{ type: 'text', text: '{"a":1}' }]);
});

test('JSON text from the tool is rewritten as the proxy would', async () => {
  const result = await call('json_text', { n: 10 });
  const [item] = result.content;
  assert.equal(item._meta['pith/encoding'], 'pith');
  const want = orders(10).map((o) => ({ ...o, big: String(o.big) }));
  assert.deepStrictEqual(pith.decode(item.text), want);
});

test('a CallToolResult is rewritten item by item; an error result is left alone', async () => {
  const result = await call('already_a_result', { n: 10 });
  const [first, second] = result.content;
  assert.deepEqual(first._meta, { 'pith/encoding': 'pith' });
  assert.deepStrictEqual(pith.decode(first.text), orders(10).map((o) => ({ ...o, big: 0 })));
  assert.deepEqual(second, { type: 'text', text: 'plain words stay' });
  const failing = await call('failing');
  assert.equal(failing.isError, true);
  assert.equal(failing.content[0]._meta, undefined);
  assert.deepStrictEqual(pith.decode(failing.content[0].text, { bigint: true }), orders(30));
});

test('the helpers without a server', () => {
  const r = mcp.toolResult(Array.from({ length: 30 }, (_, i) => ({ id: i, name: `n${i}` })));
  assert.deepEqual(r.content[0]._meta, { 'pith/encoding': 'pith' });
  assert.equal(mcp.toolResult('plain text').content[0].text, 'plain text');
  const kept = { content: [{ type: 'image', data: 'x', mimeType: 'image/png' }], structuredContent: { a: 1 } };
  assert.equal(mcp.rewriteResult(kept), kept);
  const meta = mcp.rewriteResult({ content: [{ type: 'text', text: pith.encode(orders(20), { format: 'json' }), _meta: { mine: 1 } }] });
  assert.deepEqual(meta.content[0]._meta, { mine: 1, 'pith/encoding': 'pith' });
  assert.throws(() => mcp.toolResult({}, { minSaving: -1 }), RangeError);
  assert.throws(() => mcp.toolResult({}, { budget: 'lots' }), TypeError);
  assert.throws(() => mcp.encoded(5), TypeError);
  assert.throws(() => mcp.rewriteResult({ text: 'no content' }), TypeError);
  const wrapped = mcp.encoded(function named(a, b) {
    return [a, b];
  });
  assert.equal(wrapped.name, 'named');
  assert.equal(wrapped.length, 2);
  assert.equal(wrapped(1, 2).content[0].text, '[1,2]');
});

test('a text with a lone surrogate is refused by toolResult and passed on as it is by rewriteResult', () => {
  // Node-API would hand such a text to pith with U+FFFD in place of the
  // surrogate, and _meta would call the changed text a faithful encoding.
  assert.throws(
    () => mcp.toolResult('a\uD800b'),
    (e) =>
      e instanceof pith.EncodeError &&
      e.path === '$' &&
      e.code === 'LoneSurrogate' &&
      e.message === 'at $: the text holds a lone surrogate (U+D800) at line 1, column 2, which UTF-8 (and so pith) cannot hold',
  );
  assert.throws(() => mcp.toolResult('[1,\n "é\uDC00"]'), (e) => e instanceof pith.EncodeError && /\(U\+DC00\) at line 2, column 4,/.test(e.message));
  // In a value, as encode refuses it: with its path.
  assert.throws(() => mcp.toolResult({ rows: ['x\uD800'] }), (e) => e instanceof pith.EncodeError && e.path === 'rows[0]');
  const wrapped = mcp.encoded(() => 'x\uDBFF');
  assert.throws(() => wrapped(), pith.EncodeError);
  // rewriteResult leaves such an item, and the result, as they are.
  const rows = Array.from({ length: 30 }, (_, i) => `{"id":${i},"name":"user${i}","s":"x\uD800"}`);
  const result = { content: [{ type: 'text', text: `[${rows.join(',')}]` }] };
  assert.equal(mcp.rewriteResult(result), result);
  assert.equal(result.content[0].text.includes('\uFFFD'), false);
  // Beside a well-formed item, which is rewritten.
  const good = { type: 'text', text: pith.encode(orders(20), { format: 'json' }) };
  const mixed = mcp.rewriteResult({ content: [result.content[0], good] });
  assert.equal(mixed.content[0], result.content[0]);
  assert.deepEqual(mixed.content[1]._meta, { 'pith/encoding': 'pith' });
});

test('the helpers refuse unknown options and options of the wrong type', () => {
  const cases = [
    [{ min_saving: 100000 }, /^options: unknown option "min_saving", did you mean "minSaving"\? \(pith\/mcp takes minSaving, budget, tokenizer\)$/],
    [{ tokeniser: 'cl100k' }, /did you mean "tokenizer"\?/],
    [{ budgett: 5 }, /did you mean "budget"\?/],
    [{ encoding: 'toon' }, /^options: unknown option "encoding" \(pith/],
    [null, /^options: expected an object of options for pith\/mcp, or undefined, found null$/],
    [[], /found an array$/],
    [{ tokenizer: 5 }, /^tokenizer: /],
  ];
  for (const [options, message] of cases) {
    for (const call of [() => mcp.toolResult({ a: 1 }, options), () => mcp.rewriteResult({ content: [] }, options), () => mcp.encoded(() => 1, options)]) {
      assert.throws(call, (e) => e instanceof TypeError && message.test(e.message), JSON.stringify(options));
    }
  }
  assert.deepEqual(mcp.toolResult({ a: 1 }, undefined), { content: [{ type: 'text', text: '{"a":1}' }]});
  assert.deepEqual(mcp.toolResult({ a: 1 }, { minSaving: undefined, budget: undefined }).content[0].text, '{"a":1}');
});
