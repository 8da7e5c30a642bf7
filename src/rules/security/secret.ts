import { defineRule } from '../types.js';
import { scanPatterns, type Pattern } from './patterns.js';
import { mask } from './text.js';

const PLACEHOLDER = /^(?:x+|\*+|\.+|<[^>]*>|\$\{?[\w]+\}?|redacted|password|passwd|pass|secret|changeme|your[-_]?\w*|example|dummy|test|token|\w*_here)$/i;

/** Provider formats, matched on the raw text (case matters for keys). */
const PATTERNS: Pattern[] = [
  { name: 'AWS access key id', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { name: 'AWS secret access key', re: /\baws_?secret_?access_?key\b\s*[:=]\s*["']?([A-Za-z0-9/+]{40})\b/i },
  { name: 'GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/ },
  { name: 'Anthropic API key', re: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{32,}/ },
  { name: 'OpenAI API key', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|\bsk-[A-Za-z0-9]{48}\b/ },
  { name: 'Slack token', re: /\bxox[abposr]-[0-9A-Za-z-]{10,}/ },
  { name: 'Slack webhook', re: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+/ },
  { name: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { name: 'Stripe key', re: /\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{24,}\b/ },
  { name: 'private key block', re: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { name: 'JSON Web Token', re: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
  {
    name: 'URL with a password',
    re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/<>"'`]+:([^\s@/<>"'`]+)@[^\s"'`<>]+/i,
    accept: (m) => !PLACEHOLDER.test(m[1]!) && !/REDACTED|\*{3,}|\$\{|%s|<[^>]+>/i.test(m[1]!),
  },
];

const SET = { trigger: /AKIA|ASIA|aws_?secret|gh[pousr]_|github_pat_|sk-|xox|hooks\.slack|AIza|sk_|rk_|PRIVATE KEY|eyJ|:\/\/[^\s/@]+:[^\s/@]+@/i, patterns: PATTERNS };

export default defineRule({
  id: 'security/secret',
  meta: {
    description: 'A credential in a provider\'s format: cloud keys, tokens, private keys, JWTs, URLs with a password.',
    severity: 'error',
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'Memory is read into every session and often committed to git: a pasted credential leaks to every model call and every clone. Real vaults held tokens and passwords before they were redacted.',
      fix: 'Remove the credential (rotate it: it has been exposed), keep a pointer instead ("the deploy token is in 1Password, item X"). Secrets are never printed in full by memlint.',
    },
    messages: { secret: '{kind} in memory: {masked}' },
  },
  checkFile(file, { report }) {
    for (const hit of scanPatterns(file, SET, false)) {
      const secret = hit.match[1] ?? hit.match[0];
      report({ messageId: 'secret', file: hit.file, offset: hit.offset, length: hit.length, data: { kind: hit.pattern.name, masked: mask(secret) } });
    }
  },
});

const MASK_RES = PATTERNS.map((p) => ({ p, re: new RegExp(p.re.source, p.re.flags.includes('g') ? p.re.flags : `${p.re.flags}g`) }));

/**
 * `text` with every credential this rule finds shown as its findings show it (mask): for text a
 * person or a log reads (proposal evidence, reports, diffs). Matched on the raw text, as the rule is.
 */
export function maskSecrets(text: string): string {
  if (!SET.trigger.test(text)) return text;
  let out = text;
  for (const { p, re } of MASK_RES) {
    re.lastIndex = 0;
    out = out.replace(re, (...args: unknown[]) => {
      const end = args.findIndex((a) => typeof a === 'number');
      const m = Object.assign(args.slice(0, end) as string[], { index: args[end] as number, input: out }) as unknown as RegExpExecArray;
      if (p.accept && !p.accept(m)) return m[0];
      const secret = m[1] ?? m[0];
      return m[0].replace(secret, mask(secret));
    });
  }
  return out;
}

/** The same, through every string of a JSON-like value (proposal evidence). */
export function maskSecretsDeep<T>(value: T): T {
  if (typeof value === 'string') return maskSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => maskSecretsDeep(v)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecretsDeep(v)])) as T;
  return value;
}
