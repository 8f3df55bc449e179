'use strict';
// pith for MCP servers written with the official TypeScript SDK
// (@modelcontextprotocol/sdk).
//
// A tool's return value becomes a CallToolResult whose text is what the
// `pith mcp` proxy would have sent: the value in pith's cheapest form that
// reads back to exactly the same value, with `_meta["pith/encoding"]`
// naming its syntax (pith, toon, hoisted or json) and, when a budget cut
// the value, `_meta["pith/budget"]` (cut or exceeded). The proxy's own
// function decides, so a text that would save fewer than `minSaving` tokens
// stays compact JSON, without `_meta`.
//
//   import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
//   import { encoded } from '@pith-format/pith/mcp';
//
//   server.registerTool('list_orders', { inputSchema: { status: z.string() } },
//     encoded(async ({ status }) => db.orders(status)));
//
// The results are plain objects of the SDK's CallToolResult shape, so this
// module needs nothing from the SDK itself.

const { _toolText: toolText, _optionsOf: optionsOf } = require('./index.js');

const OPTIONS = ['minSaving', 'budget', 'tokenizer'];

function checked(options) {
  const { minSaving = 10, budget, tokenizer = 'o200k' } = optionsOf(options, OPTIONS, 'pith/mcp');
  if (!Number.isSafeInteger(minSaving)) throw new TypeError(`minSaving: expected an integer, found ${String(minSaving)}`);
  if (budget !== undefined && budget !== null && !Number.isSafeInteger(budget)) {
    throw new TypeError(`budget: expected a number of tokens, found ${String(budget)}`);
  }
  if (typeof tokenizer !== 'string') throw new TypeError(`tokenizer: expected a string, found ${typeof tokenizer}`);
  return { minSaving, budget: budget ?? undefined, tokenizer };
}

/** The `_meta` entries of a rewrite (none when the text stays as it was). */
function metaOf(out) {
  const meta = {};
  if (out.encoding) meta['pith/encoding'] = out.encoding;
  if (out.budget) meta['pith/budget'] = out.budget;
  return meta;
}

function rewrite(result, o) {
  return toolText(result, o.minSaving, o.budget, o.tokenizer);
}

/**
 * A tool's return value as the CallToolResult `pith mcp` would send.
 *
 * `value` is any value `encode` takes, or a string, which is taken as the
 * tool's own text (a string holding a JSON object or array is re-encoded,
 * as the proxy re-encodes such texts). A string holding a lone surrogate
 * is refused with an EncodeError naming its line and column, as encode
 * refuses such a string in a value: it has no UTF-8, so no text pith sends.
 * @param {unknown} value
 * @param {import('./mcp').Options} [options]
 * @returns {import('./mcp').CallToolResult}
 */
function toolResult(value, options) {
  const out = rewrite(value, checked(options));
  const item = { type: 'text', text: out.text };
  const meta = metaOf(out);
  if (Object.keys(meta).length > 0) item._meta = meta;
  return { content: [item] };
}

/**
 * `result` with its text items rewritten as the proxy rewrites them. An
 * error result is returned as it is; so are items that are not text, and
 * texts that are not JSON (one with a lone surrogate is not) or would not
 * save `minSaving` tokens.
 * `structuredContent` and the other members are kept.
 * @param {import('./mcp').CallToolResult} result
 * @param {import('./mcp').Options} [options]
 * @returns {import('./mcp').CallToolResult}
 */
function rewriteResult(result, options) {
  const o = checked(options);
  if (result === null || typeof result !== 'object' || !Array.isArray(result.content)) {
    throw new TypeError('result: expected a CallToolResult, an object with a content array');
  }
  if (result.isError === true) return result;
  let changed = false;
  const content = result.content.map((item) => {
    if (item === null || typeof item !== 'object' || item.type !== 'text' || typeof item.text !== 'string') return item;
    if (item._meta !== undefined && (item._meta === null || typeof item._meta !== 'object')) return item;
    // A lone surrogate makes the text no JSON (JSON is Unicode text) and
    // would reach pith as U+FFFD: the server's text is passed on as it is.
    if (!item.text.isWellFormed()) return item;
    const out = rewrite(item.text, o);
    const meta = metaOf(out);
    if (Object.keys(meta).length === 0) return item;
    changed = true;
    return { ...item, text: out.text, _meta: { ...(item._meta || {}), ...meta } };
  });
  return changed ? { ...result, content } : result;
}

/**
 * Wraps a tool callback (sync or async) so that its return value goes
 * through `toolResult`: pass it to the SDK's `registerTool` (or `tool`) in
 * place of the callback. Declare no `outputSchema` for such a tool: its
 * result is text.
 * @template {unknown[]} A
 * @param {(...args: A) => unknown} callback
 * @param {import('./mcp').Options} [options]
 * @returns {(...args: A) => import('./mcp').CallToolResult | Promise<import('./mcp').CallToolResult>}
 */
function encoded(callback, options) {
  if (typeof callback !== 'function') throw new TypeError('callback: expected a function');
  checked(options);
  const wrapped = function (...args) {
    const value = callback.apply(this, args);
    if (value !== null && typeof value === 'object' && typeof value.then === 'function') {
      return Promise.resolve(value).then((v) => toolResult(v, options));
    }
    return toolResult(value, options);
  };
  Object.defineProperty(wrapped, 'name', { value: callback.name });
  Object.defineProperty(wrapped, 'length', { value: callback.length });
  return wrapped;
}

exports.toolResult = toolResult;
exports.rewriteResult = rewriteResult;
exports.encoded = encoded;
