import { defineRule } from '../types.js';
import { runnable, scanPatterns, type Pattern } from './patterns.js';
import { mask } from './normalize.js';

const PLACEHOLDER =
  /^(?:x+|\*+|\.+|#+|<[^>]*>|\$\{?[\w]+\}?|\{\{[^}]*\}\}|%\w+%|redacted|password\d*|passwd|pass|pwd|secret|changeme|change_me|your[-_]?\w*|my[-_]?\w*|example\w*|dummy|test|token|\w*_here|placeholder|hunter2|admin|root|user(?:name)?|guest|none|null|empty|\w*xxxx\w*)$/i;
/** Keys published in vendors' own documentation (AWS docs, Firebase SDK samples, Azurite, jwt.io). */
const DOCUMENTED = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  'AIzaSyabcdefghijklmnopqrstuvwxyz1234567',
  'AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs',
  'AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM',
  'AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU',
  'AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
  'AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A',
  'AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c',
  'AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4',
  'AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY',
  'AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM',
  'AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ',
  'AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g',
  'AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU',
  'AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw',
  'AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE',
  'AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY',
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
]);

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/**
 * How a key-shaped string reads: 'fake' is a placeholder to drop (a documented key, an x-run or
 * mask, a word a person typed: EXAMPLE, your_token_here; too little entropy for a random key);
 * 'weak' is a hand-written stand-in that still has the format (counting runs like abc123…789,
 * "fake", "test"): reported as a warning, never an error; 'real' is reported as an error.
 */
export function keyQuality(body: string, minEntropy = 3): 'real' | 'weak' | 'fake' {
  if (DOCUMENTED.has(body)) return 'fake';
  if (
    /x{6,}|X{6,}|\*{3,}|#{4,}|\.{4,}|0{8,}|example|placeholder|your|here|insert|redacted|changeme|replace/i.test(body)
  )
    return 'fake';
  if (/EXAMPLE$/.test(body)) return 'fake';
  if (entropy(body) < minEntropy) return 'fake';
  let sequential = 0;
  for (let i = 1; i < body.length; i++) if (body.charCodeAt(i) === body.charCodeAt(i - 1) + 1) sequential++;
  if (body.length >= 12 && sequential / (body.length - 1) > 0.3) return 'weak';
  if (/fake|dummy|sample|test(?:ing)?key/i.test(body)) return 'weak';
  return 'real';
}
export const looksFake = (body: string, minEntropy = 3): boolean => keyQuality(body, minEntropy) === 'fake';

const real =
  (group = 0, minEntropy = 3) =>
  (m: RegExpExecArray): boolean =>
    !looksFake(m[group] ?? m[0], minEntropy);

/** The part of a provider match that is random in a real key (prefixes stripped), for keyQuality. */
const KEY_BODY = new Map<string, (m: RegExpExecArray) => string>([
  ['GitHub token', (m) => m[0].replace(/^gh[pousr]_|^github_pat_/, '')],
  ['Anthropic API key', (m) => m[0].replace(/^sk-ant-\w+?\d{2}-/, '')],
  ['Stripe key', (m) => m[0].replace(/^\w\w_\w+?_/, '')],
  ['Google API key', (m) => m[0].slice(4)],
  ['AWS access key id', (m) => m[0].slice(4)],
  ['npm token', (m) => m[0].slice(4)],
  ['GitLab token', (m) => m[0].replace(/^gl\w+-|^GR1348941/, '')],
  ['DigitalOcean token', (m) => m[0].slice(7)],
  ['Shopify token', (m) => m[0].slice(6)],
  ['OpenAI API key', (m) => m[0]],
]);

/** Provider formats, matched on the raw text (case matters for keys). */
export const PATTERNS: Pattern[] = [
  {
    name: 'AWS access key id',
    pre: /A3T|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA/,
    re: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/,
    accept: real(0, 2.5),
  },
  {
    name: 'AWS secret access key',
    pre: /secret|Secret|SECRET/,
    re: /\b(?:aws_?secret_?(?:access_?)?key|secret_?access_?key|aws_?secret)\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/i,
    accept: real(1, 3.5),
  },
  {
    name: 'GitHub token',
    pre: /gh[pousr]_|github_pat_/,
    re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/,
    accept: (m) => !looksFake(m[0].replace(/^gh[pousr]_|^github_pat_/, '')),
  },
  {
    name: 'Anthropic API key',
    pre: /sk-ant-/,
    re: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}AA(?![A-Za-z0-9_-])|\bsk-ant-(?:oat|ort)\d{2}-[A-Za-z0-9_-]{40,}/,
    accept: (m) => !looksFake(m[0].replace(/^sk-ant-\w+?\d{2}-/, ''), 3.5),
  },
  {
    name: 'OpenAI API key',
    pre: /sk-/,
    re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|\bsk-[A-Za-z0-9]{48}\b/,
    accept: real(),
  },
  // Slack's token families as gitleaks describes them (bot, user, app, configuration, legacy), case-sensitive.
  {
    name: 'Slack token',
    pre: /xox|xapp-/,
    re: /\bxoxb-\d{10,13}-\d{10,13}[a-zA-Z0-9-]*|\bxoxb-\d{8,14}-[a-zA-Z0-9]{18,26}\b|\bxox[pe](?:-\d{10,13}){3}-[a-zA-Z0-9-]{28,34}|\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+|\bxoxe\.xox[bp]-\d-[A-Za-z0-9]{163,166}|\bxoxe-\d-[A-Za-z0-9]{146}|\bxox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}|\bxox[os]-\d+-\d+-\d+-[a-fA-F\d]+/,
    accept: (m) => !looksFake(m[0], 2),
  },
  {
    name: 'Slack webhook',
    pre: /hooks\.slack\.com/,
    re: /(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/]{20,}/,
    accept: (m) => !looksFake(m[0].replace(/^.*?\.com\/\w+\//, ''), 2.5),
  },
  { name: 'Google API key', pre: /AIza/, re: /\bAIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_])/, accept: real(0, 3.5) },
  {
    name: 'Stripe key',
    pre: /[sr]k_(?:live|test|prod)_/,
    re: /\b(?:sk|rk)_(?:live|test|prod)_[0-9a-zA-Z]{10,99}\b/,
    accept: (m) => !looksFake(m[0].replace(/^\w\w_\w+?_/, '')),
  },
  { name: 'npm token', pre: /npm_/, re: /\bnpm_[A-Za-z0-9]{36}\b/, accept: real() },
  { name: 'PyPI token', pre: /pypi-/, re: /\bpypi-AgEIcHlwaS5vcmc[\w-]{50,}/, accept: real() },
  {
    name: 'GitLab token',
    pre: /gl[a-z]{2,6}-|GR1348941/,
    re: /\b(?:glpat|glptt|gldt|glrt|glcbt|glft|glimt|glsoat|glffct|glagent|gloas)-[\w-]{20,300}(?:\.[0-9a-z]{9})?\b|\bGR1348941[\w-]{20}\b/,
    accept: (m) => !looksFake(m[0].replace(/^gl\w+-|^GR1348941/, '')),
  },
  {
    name: 'Hugging Face token',
    pre: /hf_|api_org_/,
    re: /\b(?:hf_|api_org_)[A-Za-z]{34}\b/,
    accept: (m) =>
      !looksFake(m[0].replace(/^hf_|^api_org_/, ''), 2.5) && /[A-Z]/.test(m[0].slice(3)) && /[a-z]/.test(m[0].slice(3)),
  },
  {
    name: 'SendGrid API key',
    pre: /SG\./,
    re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b|\bSG\.[A-Za-z0-9=_.-]{66}(?![A-Za-z0-9=_.-])/,
    accept: real(),
  },
  {
    name: 'Telegram bot token',
    pre: /\d:A/,
    re: /(?<![\w:-])\d{5,16}:A[A-Za-z0-9_-]{34}(?![\w-])/,
    accept: (m) => !looksFake(m[0].split(':')[1]!) && !/^A(?:[a-z]+-|_)/.test(m[0].split(':')[1]!),
  },
  {
    name: 'Azure storage account key',
    pre: /AccountKey=/,
    re: /\bAccountKey=([A-Za-z0-9+/]{86}==)/,
    accept: real(1, 4),
  },
  { name: 'DigitalOcean token', pre: /_v1_/, re: /\bdo[opr]_v1_[a-f0-9]{64}\b/, accept: real() },
  {
    name: 'Shopify token',
    pre: /shp[a-z]{2}_/,
    re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/,
    accept: (m) => !looksFake(m[0].slice(6), 2.5),
  },
  {
    name: 'private key block',
    pre: /PRIVATE KEY/,
    re: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----(?:\\n|\s)+[A-Za-z0-9+/=]{16}/,
  },
  {
    name: 'JSON Web Token',
    pre: /\.ey/,
    re: /\bey[A-Za-z0-9_-]{15,}\.ey[A-Za-z0-9_/\\-]{15,}(?:\.[A-Za-z0-9_/\\-]*={0,2})?/,
    accept: (m) => !DOCUMENTED.has(m[0]) && !/\.ey[A-Za-z0-9_/\\-]*x{8,}/.test(m[0]),
  },
  {
    name: 'URL with a password',
    pre: /:\/\//,
    re: /\b[a-z][a-z0-9+.-]*:\/\/([^\s:@/<>"'`]*):([^\s@/<>"'`]+)@[^\s"'`<>]+/i,
    accept: (m) =>
      !/^file$/i.test(m[0].split(':')[0]!) &&
      !PLACEHOLDER.test(m[2]!) &&
      !/REDACTED|\*{3,}|\$\{|\$\(|%s|\{\{|<[^>]+>|^\$\w+$/i.test(m[2]!) &&
      !(m[1] === m[2]),
  },
  // Generic assignments: a secret-named variable given a literal value. A warning, not an error:
  // no provider format vouches that it is a live credential.
  {
    name: 'hard-coded secret in an assignment',
    pre: /key|Key|KEY|token|Token|TOKEN|secret|Secret|SECRET|passw|Passw|PASSW|pwd|PWD|credential|Credential|CREDENTIAL/,
    // A quoted value, or `export` (any case: the regex has the i flag, which folds ASCII letters only).
    needs: /"|'|[eE][xX][pP][oO][rR][tT]/,
    severity: 'warning',
    re: /(?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?key|auth[_-]?token|access[_-]?token|token|password|passwd|pwd|credentials?)["']?\s*(?:=|:=|:)\s*(["'])([^"'\s]{12,})\1|\bexport\s+[A-Z0-9_]*?(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)[A-Z0-9_]*=([^\s"'$`][^\s"'`]{7,})/i,
    accept: (m) => {
      const v = m[2] ?? m[3]!;
      return (
        !PLACEHOLDER.test(v) &&
        !DOCUMENTED.has(v) &&
        !/x{6,}|X{6,}|\*{3,}|#{4,}|example|sample|placeholder|dummy|your|here|insert|changeme|replace/i.test(v) &&
        entropy(v) >= 2.5 &&
        !/^(?:\$|%|\{\{|<|https?:|\/|~|\.\.?\/)|REDACTED|\*{3,}/i.test(v) &&
        !/^[0-9]+$/.test(v)
      );
    },
  },
];

/** The cheap prefilter: every pattern's keywords in one regex; a note without any is not scanned. */
export const SECRET_PREFILTER = new RegExp(PATTERNS.map((p) => p.pre!.source).join('|'));
const SET = { patterns: PATTERNS };

export default defineRule({
  id: 'security/secret',
  meta: {
    description:
      "A credential in a provider's format (cloud keys, tokens, private keys, JWTs, URLs with a password), or a secret-named variable assigned a literal value.",
    severity: 'error',
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'Memory is read into every session and often committed to git: a pasted credential leaks to every model call and every clone. Real vaults held tokens and passwords before they were redacted.',
      fix: 'Remove the credential (rotate it: it has been exposed), keep a pointer instead ("the deploy token is in 1Password, item X"). Secrets are never printed in full by memlint. Not flagged: keys published in vendors\' documentation (AKIAIOSFODNN7EXAMPLE, Firebase sample keys) and placeholders (ghp_xxxx…, your_token_here).',
    },
    messages: { secret: '{kind} in memory: {masked}' },
  },
  checkFile(file, { report }) {
    for (const hit of scanPatterns(file, SET, false)) {
      const named =
        hit.pattern.name === 'URL with a password'
          ? hit.match[2]!
          : hit.pattern.name === 'hard-coded secret in an assignment'
            ? (hit.match[2] ?? hit.match[3]!)
            : (hit.match[1] ?? hit.match[0]);
      const weak =
        !hit.pattern.severity &&
        KEY_BODY.has(hit.pattern.name) &&
        keyQuality(KEY_BODY.get(hit.pattern.name)!(hit.match), 0) === 'weak';
      const severity = weak ? 'warning' : hit.pattern.severity;
      report({
        messageId: 'secret',
        file: hit.file,
        offset: hit.offset,
        length: hit.length,
        ...(severity ? { severity } : {}),
        data: {
          kind: weak ? `${hit.pattern.name} (looks hand-written: check it is not real)` : hit.pattern.name,
          masked: mask(named),
        },
      });
    }
  },
});

const MASK_RES = PATTERNS.map((p) => ({
  p,
  re: new RegExp(p.re.source, p.re.flags.includes('g') ? p.re.flags : `${p.re.flags}g`),
}));

/**
 * `text` with every credential this rule finds shown as its findings show it (mask): for text a
 * person or a log reads (proposal evidence, reports, diffs). Matched on the raw text, as the rule is.
 */
export function maskSecrets(text: string): string {
  return maskWith(text, () => {});
}

function maskWith(text: string, seen: (secret: string, shown: string) => void): string {
  let out = text;
  // Only the patterns whose keywords the text has (as the rule runs them); once a mask has changed the
  // text, every later pattern runs on it (the keywords were found in the text before).
  const may = new Set(runnable(SET, text).map((r) => r.pattern));
  for (const { p, re } of MASK_RES) {
    if (out === text && !may.has(p)) continue;
    re.lastIndex = 0;
    out = out.replace(re, (...args: unknown[]) => {
      const end = args.findIndex((a) => typeof a === 'number');
      const m = Object.assign(args.slice(0, end) as string[], {
        index: args[end] as number,
        input: out,
      }) as unknown as RegExpExecArray;
      if (p.accept && !p.accept(m, text)) return m[0];
      const secret = m[1] ?? m[0];
      seen(secret, mask(secret));
      return m[0].replace(secret, mask(secret));
    });
  }
  return out;
}

/**
 * The real text behind `shown`, a line written with its credentials masked (a proposal's rewritten
 * index line), given `raw`, the text the credentials come from (the line as the file reads it): each
 * mask is put back as the credential it stands for. null when a mask stands for two different
 * credentials (apply refuses rather than guess). A `shown` without masks is returned as is.
 */
export function unmaskSecrets(shown: string, raw: string): string | null {
  const back = new Map<string, string>();
  const clash = new Set<string>();
  maskWith(raw, (secret, m) => {
    const had = back.get(m);
    if (had !== undefined && had !== secret) clash.add(m);
    back.set(m, secret);
  });
  let out = shown;
  for (const [m, secret] of back) {
    if (!out.includes(m)) continue;
    if (clash.has(m)) return null;
    out = out.split(m).join(secret);
  }
  return out;
}

/** The same, through every string of a JSON-like value (proposal evidence). */
export function maskSecretsDeep<T>(value: T): T {
  if (typeof value === 'string') return maskSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => maskSecretsDeep(v)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecretsDeep(v)])) as T;
  return value;
}
