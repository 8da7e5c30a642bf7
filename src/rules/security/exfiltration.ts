import { defineRule } from '../types.js';
import { reportPatternHits, type Pattern } from './patterns.js';

const SECRET_VAR = String.raw`\$\{?[a-z_]*(?:token|secret|key|password|passwd|credential|auth|cookie|session)[a-z_]*\}?`;
const CREDENTIAL_FILE = String.raw`(?:\.env(?:\.[\w-]+)?\b|\.aws/credentials|id_(?:rsa|ed25519|ecdsa)\b|\.netrc|\.npmrc|\.pypirc|credentials\.json|\.git-credentials|\.docker/config\.json|\.kube/config)`;

const PATTERNS: Pattern[] = [
  { name: 'network request carrying a secret variable', re: new RegExp(String.raw`\b(?:curl|wget|http(?:ie)?|invoke-webrequest|iwr|fetch|nc|ncat)\b[^\n]{0,200}${SECRET_VAR}`) },
  { name: 'reading a credential file', re: new RegExp(String.raw`\b(?:cat|less|more|head|tail|base64|xxd|get-content|cp|scp|rsync|upload)\s+[^\n|;]{0,80}${CREDENTIAL_FILE}`) },
  { name: 'credential file sent over the network', re: new RegExp(String.raw`${CREDENTIAL_FILE}[^\n]{0,120}\|\s*(?:curl|wget|nc|ncat|base64)`) },
  { name: 'send or upload to a URL', re: /\b(?:send|upload|post|exfiltrate|forward|transmit|copy|leak)\b[^\n.]{0,80}\b(?:to|into)\s+https?:\/\/[^\s)]+/ },
];

const SET = { trigger: /curl|wget|http|invoke-webrequest|iwr|fetch|\bnc\b|ncat|\.env|credentials|id_rsa|id_ed25519|id_ecdsa|netrc|npmrc|pypirc|\.kube|\.docker/, patterns: PATTERNS };

export default defineRule({
  id: 'security/exfiltration',
  meta: {
    description: 'Instructions that move secrets or files off the machine: requests carrying secret variables, reading credential files, "send … to http…".',
    severity: 'warning',
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'An agent follows its memory. A remembered "curl https://… -d $GITHUB_TOKEN" or "upload ~/.aws/credentials to …" turns every session into a leak.',
      fix: 'Delete the instruction unless you wrote it on purpose; if it is a legitimate command, keep secrets out of it (read them from a secret store at run time) and silence the rule for this note.',
    },
    messages: { exfil: '{kind}: "{excerpt}"' },
  },
  checkFile(file, { report }) {
    reportPatternHits(file, report, SET, 'exfil');
  },
});
