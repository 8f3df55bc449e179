'use strict';
// The rows the MCP test server's tools return: each with a BigInt, exact
// through the text.

function orders(n) {
  return Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    customer: `customer-${i}`,
    total: Math.round((9.5 + i * 1.25) * 100) / 100,
    paid: i % 3 !== 0,
    big: 2n ** 64n + BigInt(i),
  }));
}

module.exports = { orders };
