/**
 * The Claude Code hook's payload is checked by hand (parseHookInput) so that a hook call does not load
 * zod (~40 ms, as much as starting node); zod stays the authority: whatever the hand check accepts, the
 * schema accepts and parses to the same value, and every other payload goes to the schema, whose error
 * is the one line the hook prints.
 */
import { describe, expect, it } from 'vitest';
import { hookInputSchema, parseHookInput } from '../src/guard/claude-hook.js';
import { runBin } from './helpers/run.js';

const good: unknown[] = [
  { tool_name: 'Write', tool_input: { file_path: '/m/x.md', content: 'text' } },
  {
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    cwd: '/p',
    session_id: 's',
    tool_input: { file_path: 'x.md', old_string: 'a', new_string: 'b', replace_all: true },
  },
  {
    tool_name: 'MultiEdit',
    tool_input: {
      file_path: 'x.md',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd', replace_all: false, extra: 1 },
      ],
    },
  },
  { tool_name: 'Read', tool_input: {} },
  { tool_name: 'Write', tool_input: { file_path: 'x.md', unknown: [1, 2], edits: [] } },
];

const bad: unknown[] = [
  null,
  [],
  'text',
  3,
  {},
  { tool_name: 3, tool_input: {} },
  { tool_name: 'Write' },
  { tool_name: 'Write', tool_input: null },
  { tool_name: 'Write', tool_input: [] },
  { tool_name: 'Write', tool_input: 'x' },
  { tool_name: 'Write', hook_event_name: 1, tool_input: {} },
  { tool_name: 'Write', cwd: null, tool_input: {} },
  { tool_name: 'Write', tool_input: { file_path: null } },
  { tool_name: 'Write', tool_input: { content: 5 } },
  { tool_name: 'Edit', tool_input: { old_string: 1 } },
  { tool_name: 'Edit', tool_input: { new_string: false } },
  { tool_name: 'Edit', tool_input: { replace_all: 'yes' } },
  { tool_name: 'MultiEdit', tool_input: { edits: {} } },
  { tool_name: 'MultiEdit', tool_input: { edits: [{ old_string: 'a' }] } },
  { tool_name: 'MultiEdit', tool_input: { edits: [null] } },
  { tool_name: 'MultiEdit', tool_input: { edits: [{ old_string: 'a', new_string: 'b', replace_all: 1 }] } },
];

/** What the schema alone says: the parsed value, or its error message. */
function bySchema(p: unknown): { value?: unknown; error?: string } {
  try {
    return { value: hookInputSchema().parse(p) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
function byCheck(p: unknown): { value?: unknown; error?: string } {
  try {
    return { value: parseHookInput(p) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Random payloads from parts that are each valid (mostly) or not (a seeded generator: the same set each run). */
function randomPayloads(n: number): unknown[] {
  let seed = 14;
  const r = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const wrong = [0, true, null, [], {}, ['a']];
  /** A field's value: one of the valid ones (undefined: left out) most of the time, else a wrong type. */
  const field = (valid: readonly unknown[]): unknown => (r() < 0.93 ? pick(valid) : pick(wrong));
  const obj = (entries: [string, unknown][]): Record<string, unknown> =>
    Object.fromEntries(entries.filter(([, v]) => v !== undefined));
  const edit = (): unknown =>
    r() < 0.05
      ? pick(wrong)
      : obj([
          ['old_string', field(['a', ''])],
          ['new_string', field(['b', ''])],
          ['replace_all', field([undefined, true, false])],
        ]);
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const edits = r() < 0.5 ? undefined : r() < 0.05 ? pick(wrong) : Array.from({ length: Math.floor(r() * 3) }, edit);
    const input =
      r() < 0.03
        ? pick(wrong)
        : obj([
            ['file_path', field([undefined, 'x.md'])],
            ['content', field([undefined, 'text'])],
            ['old_string', field([undefined, 'a'])],
            ['new_string', field([undefined, 'b'])],
            ['replace_all', field([undefined, true])],
            ['edits', edits],
            ['other', field([undefined, 1])],
          ]);
    out.push(
      r() < 0.02
        ? pick(wrong)
        : obj([
            ['tool_name', field(['Write', 'Edit', 'MultiEdit'])],
            ['cwd', field([undefined, '/p'])],
            ['hook_event_name', field([undefined, 'PreToolUse'])],
            ['tool_input', input],
          ]),
    );
  }
  return out;
}

describe('guard --claude-hook: the payload check', () => {
  it.each(good.map((p) => [JSON.stringify(p), p]))('accepts %s as the schema parses it', (_label, p) => {
    expect(bySchema(p).error).toBeUndefined();
    expect(byCheck(p)).toEqual(bySchema(p));
  });

  it.each(bad.map((p) => [JSON.stringify(p), p]))("refuses %s with the schema's error", (_label, p) => {
    const s = bySchema(p);
    expect(s.error).toBeDefined();
    expect(byCheck(p)).toEqual(s);
  });

  it('agrees with the schema on 3,000 random payloads (accepts only what it accepts, the same value or error)', () => {
    const payloads = randomPayloads(3000);
    let accepted = 0;
    for (const p of payloads) {
      const s = bySchema(p);
      expect(byCheck(p)).toEqual(s);
      if (!s.error) accepted++;
    }
    // Both kinds are in the set: the comparison is not one-sided.
    expect(accepted).toBeGreaterThan(100);
    expect(payloads.length - accepted).toBeGreaterThan(100);
  });

  it("the CLI prints the schema's first line for a bad payload and lets the write through", () => {
    const p = { tool_name: 'Write', tool_input: { file_path: 5 } };
    const first = bySchema(p).error!.split('\n')[0];
    const r = runBin(['guard', '--claude-hook'], { stdin: JSON.stringify(p) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`memlint guard --claude-hook: cannot read the hook input (${first}); not checked\n`);
  });
  // That a good payload loads no package (zod): test/guard-startup.test.ts.
});
