// Type declarations of @pith-format/pith/mcp.

/** A text content item, as the MCP SDK's CallToolResult holds it. */
export interface TextContent {
  type: 'text';
  text: string;
  /** `pith/encoding` (pith, toon, hoisted, json) and `pith/budget` (cut,
   * exceeded) when the text was rewritten. */
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** The shape of the MCP SDK's CallToolResult, as far as these helpers read it. */
export interface CallToolResult {
  content: (TextContent | { type: string; [key: string]: unknown })[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

/** The helpers' options: an object or `undefined` (no options). `null`, a
 * name not listed here (`min_saving`) and a value of the wrong type are
 * TypeErrors, not ignored. */
export interface Options {
  /** Rewrite only when that saves at least this many tokens (default 10, as `pith mcp`). */
  minSaving?: number;
  /** Bound the text to this many tokens, cutting collections at row
   * boundaries with omission receipts. */
  budget?: number;
  /** The tokenizer savings and budgets count in (default `o200k`). */
  tokenizer?: 'o200k' | 'cl100k' | 'bytes4' | 'o200k_base' | 'cl100k_base';
}

/** A tool's return value (a string is taken as the tool's own text) as the
 * CallToolResult `pith mcp` would send.
 * @throws an `EncodeError` (of `@pith-format/pith`) for a value `encode`
 * refuses, with its path, and for a string holding a lone surrogate, with
 * its line and column in the message: UTF-8, and so pith, cannot hold one.
 * @throws {TypeError} for an unknown option or one of the wrong type */
export function toolResult(value: unknown, options?: Options): CallToolResult & { content: [TextContent] };

/** `result` with its text items rewritten as the proxy rewrites them; an
 * error result, items that are not text, and texts holding a lone
 * surrogate (no JSON to rewrite) are left as they are. */
export function rewriteResult<R extends CallToolResult>(result: R, options?: Options): R;

/** A tool callback whose return value goes through `toolResult`: pass it to
 * the SDK's `registerTool` in place of the callback, and declare no
 * `outputSchema` for that tool. */
export function encoded<A extends unknown[]>(
  callback: (...args: A) => unknown,
  options?: Options,
): (...args: A) => CallToolResult | Promise<CallToolResult>;
