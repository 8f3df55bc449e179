'use strict';
// An MCP server written with the official TypeScript SDK, its tools wrapped
// by @pith-format/pith/mcp. mcp.test.js runs it over stdio and talks to it
// with the SDK's own client.

const { pith, mcp, peer } = require('./support.js');

const { McpServer } = peer('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = peer('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = peer('zod');

const { encoded, rewriteResult } = mcp;
const { orders } = require('./orders.js');

const server = new McpServer({ name: 'pith-test', version: '1.0.0' });

server.registerTool(
  'list_orders',
  { description: 'Orders, as a table.', inputSchema: { n: z.number().int() } },
  encoded(({ n }) => orders(n)),
);

server.registerTool(
  'list_orders_within_budget',
  { description: 'Orders, cut to 120 tokens.', inputSchema: { n: z.number().int() } },
  encoded(async ({ n }) => orders(n), { budget: 120 }),
);

server.registerTool('small', { description: 'Too small to be worth a rewrite.' }, encoded(() => ({ a: 1 })));

server.registerTool(
  'json_text',
  { description: 'A tool that returns JSON text it wrote itself.', inputSchema: { n: z.number().int() } },
  encoded(({ n }) => JSON.stringify(orders(n).map((o) => ({ ...o, big: String(o.big) })), null, 2)),
);

server.registerTool(
  'already_a_result',
  { description: 'A hand-built result, rewritten item by item.', inputSchema: { n: z.number().int() } },
  ({ n }) =>
    rewriteResult({
      content: [
        { type: 'text', text: JSON.stringify(orders(n).map((o) => ({ ...o, big: 0 }))) },
        { type: 'text', text: 'plain words stay' },
      ],
    }),
);

server.registerTool('failing', { description: 'An error result stays as it is.' }, () =>
  rewriteResult({ content: [{ type: 'text', text: pith.encode(orders(30), { format: 'json' }) }], isError: true }),
);

server.connect(new StdioServerTransport());
