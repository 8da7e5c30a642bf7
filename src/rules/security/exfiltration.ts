import { defineRule } from '../types.js';
import { matchedOnView, reportPatternHits, type Pattern } from './patterns.js';

/** A variable whose name ends in a secret word ($API_KEY, ${GITHUB_TOKEN}; not $TRILLIUM_ETAPI_URL). */
const SECRET_VAR = String.raw`\$\{?[a-z0-9_]*(?:token|secret|key|password|passwd|pass|pwd|credential|credentials|auth|cookie|session|apikey)s?\b\}?`;
const CREDENTIAL_FILE = String.raw`(?:\.env(?!\.(?:example|sample|template|dist|defaults)\b)(?:\.[\w-]+)?\b|\.aws/credentials|id_(?:rsa|ed25519|ecdsa|dsa)\b|\.netrc|\.pgpass|\.npmrc|\.pypirc|credentials\.json|\.git-credentials|\.docker/config\.json|\.kube/config)`;
/** Secret managers' own CLIs move .env files on purpose (doppler secrets upload .env). */
const SECRET_MANAGER =
  /\b(?:doppler|infisical|vault|op|sops|dotenv-vault|dotenvx|gh\s+secret|heroku|vercel|netlify|fly|flyctl|railway|wrangler|kubectl|gcloud|aws\s+(?:secretsmanager|ssm)|az\s+keyvault|bw|chamber|teller|berglas)\b[^\n|;&]{0,80}$/;

/** Hosts a secret may legitimately go to: this machine, a container or LAN name without a dot. */
const LOCAL_HOST =
  /^(?:localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal|[a-z0-9-]+|[\w.-]+\.(?:local|internal|lan|home\.arpa|localhost))$/;

/**
 * A request that carries a secret variable is exfiltration unless the secret only authenticates
 * the request (an Authorization/API-key header, basic auth) or every host on the line is local.
 */
function carriesSecretOut(m: RegExpExecArray, text: string): boolean {
  const lineStart = text.lastIndexOf('\n', m.index) + 1;
  const lineEnd = text.indexOf('\n', m.index);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  const hosts = [...line.matchAll(/\b(?:https?|wss?|ftp):\/\/(?:[^\s/@"']+@)?(\[[^\]]+\]|[^\s/:?#"'`)]+)/g)].map(
    (h) => h[1]!,
  );
  if (hosts.length > 0 && hosts.every((h) => LOCAL_HOST.test(h))) return false;
  // The secret inside an auth header or basic-auth argument authenticates the call: not a leak.
  const withoutAuth = line
    .replace(
      /(?:-h|--header)[\s=]+(["'])(?:authorization|proxy-authorization|x-[\w-]*(?:key|token|auth)[\w-]*|[\w-]*-token|api-?key|private-token|cookie)\s*:[^"']*\1/g,
      ' ',
    )
    .replace(
      /(?:-h|--header)[\s=]+(?:authorization|x-[\w-]*(?:key|token|auth)[\w-]*|[\w-]*-token|api-?key|private-token):\S+(?:\s+\S+)?/g,
      ' ',
    )
    .replace(/(?:-u|--user|--oauth2-bearer|--auth|--http-password|--password|-a)[\s=]+\S+/g, ' ');
  return new RegExp(SECRET_VAR).test(withoutAuth);
}

const PATTERNS: Pattern[] = [
  {
    name: 'network request carrying a secret variable',
    pre: /\$/,
    re: new RegExp(
      String.raw`\b(?:curl|wget|http(?:ie)?|xh|invoke-webrequest|invoke-restmethod|iwr|irm|fetch|nc|ncat|socat)\b[^\n]{0,300}${SECRET_VAR}`,
    ),
    accept: carriesSecretOut,
  },
  {
    name: 'reading a credential file',
    pre: /\.env|credentials|id_rsa|id_ed25519|id_ecdsa|id_dsa|netrc|pgpass|npmrc|pypirc|\.kube|\.docker/,
    re: new RegExp(
      String.raw`\b(?:cat|less|more|head|tail|base64|xxd|od|strings|get-content|gc|type|cp|scp|rsync|upload|zip|tar)\s+[^\n|;]{0,80}${CREDENTIAL_FILE}`,
    ),
    accept: (m, text) =>
      !SECRET_MANAGER.test(text.slice(text.lastIndexOf('\n', m.index) + 1, m.index)) &&
      !/\.env\.(?:example|sample|template|dist|defaults)\b/.test(m[0]),
  },
  {
    name: 'credential file sent over the network',
    pre: /\.env|credentials|id_rsa|id_ed25519|id_ecdsa|id_dsa|netrc|pgpass|npmrc|pypirc|\.kube|\.docker/,
    re: new RegExp(
      String.raw`${CREDENTIAL_FILE}[^\n]{0,120}\|\s*(?:curl|wget|nc|ncat|socat|base64)|(?:--post-file|--body-file|--upload-file|--data(?:-binary|-raw|-urlencode)?|-d|-f|--form|-t)[=\s]\s*["']?(?:[\w-]+=)?@?[^\s"']*${CREDENTIAL_FILE}`,
    ),
  },
  {
    name: 'send or upload to a URL',
    pre: /https?:\/\//,
    re: /\b(?:send|upload|post|exfiltrate|forward|transmit|copy|leak|beam|submit)\b[^\n.]{0,80}\b(?:to|into|at)\s+https?:\/\/[^\s)]+/,
    accept: (m) => !LOCAL_HOST.test((/https?:\/\/([^\s/:?#)]+)/.exec(m[0]) ?? [])[1] ?? ''),
  },
  {
    name: 'conversation or context sent out',
    pre: /conversation|chat (?:history|log|transcript)|previous messages|context|transcript|system prompt/,
    re: /\b(?:include|output|print|share|send|dump|export|leak|forward|paste|upload|post|exfiltrate)\s+(?:[\w'-]+\s+){0,4}?(?:conversation\s+(?:history|log|transcript)|chat\s+(?:history|log|transcript)|previous\s+messages|(?:full|entire|whole)\s+(?:context|context\s+window|conversation|transcript|system\s+prompt)|session\s+transcript)\b/,
  },
];

const SET = matchedOnView({ patterns: PATTERNS });

export default defineRule({
  id: 'security/exfiltration',
  meta: {
    description:
      'Instructions that move secrets or files off the machine: requests carrying secret variables, reading or posting credential files, "send … to http…", sending the conversation out.',
    severity: 'warning',
    escalates: true,
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'An agent follows its memory. A remembered "curl https://… -d $GITHUB_TOKEN", "wget --post-file=.env …" or "upload ~/.aws/credentials to …" turns every session into a leak.',
      fix: "Delete the instruction unless you wrote it on purpose; if it is a legitimate command, keep secrets out of it (read them from a secret store at run time) and silence the rule for this note. Not flagged: a secret in an Authorization header or basic-auth argument, requests to localhost or a container name, secret managers' own upload commands.",
    },
    messages: { exfil: '{kind}: "{excerpt}"' },
  },
  checkFile(file, { report }) {
    reportPatternHits(file, report, SET, 'exfil');
  },
});
