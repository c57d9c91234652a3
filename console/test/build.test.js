import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { scriptBudget, scriptSizes, SCRIPT_BUDGET_BYTES } from '../build/plugins.js';

const chunk = (fileName, code) => ({ type: 'chunk', fileName, code });

describe('the script budget', () => {
  it('counts every script chunk gzipped, and nothing else', () => {
    const sizes = scriptSizes({
      a: chunk('assets/a.js', 'x'.repeat(10_000)),
      b: { type: 'asset', fileName: 'assets/a.css', source: 'y'.repeat(10_000) },
    });
    expect(sizes).toHaveLength(1);
    expect(sizes[0].bytes).toBeLessThan(200);
    expect(SCRIPT_BUDGET_BYTES).toBe(200 * 1024);
  });

  it('fails the build past the budget, naming the size and the files', () => {
    const plugin = scriptBudget(1024);
    const errors = [];
    const context = { error: (m) => errors.push(m), info: () => {} };
    plugin.generateBundle.call(context, {}, { a: chunk('assets/big.js', randomBytes(4096).toString('base64')) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/over the budget of 1\.0 KB: assets\/big\.js/);
    const fine = [];
    scriptBudget().generateBundle.call({ error: (m) => fine.push(m), info: () => {} }, {}, { a: chunk('assets/a.js', 'x') });
    expect(fine).toEqual([]);
  });
});
