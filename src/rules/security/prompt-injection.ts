import { defineRule } from '../types.js';
import { reportPatternHits, type Pattern } from './patterns.js';

/** Matched on normalized text (NFKC, invisible characters dropped, lower case). */
const PATTERNS: Pattern[] = [
  { name: 'instruction override', re: /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+|the\s+)?(?:of\s+)?(?:your\s+|the\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original|system|safety)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages|constraints)\b/ },
  { name: 'role hijack', re: /\byou\s+are\s+(?:now|no\s+longer)\s+(?:an?\s+|the\s+|in\s+)?(?:unrestricted|jailbroken|dan\b|evil|developer\s+mode|an?\s+ai\s+without|free\s+of|not\s+bound)|\b(?:act|pretend|roleplay)\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|unfiltered|evil)\b|\bdeveloper\s+mode\s+(?:enabled|on|activated)\b|^(?:system|assistant)\s*:\s+(?:you\s+(?:are|must|will)|ignore|from\s+now\s+on|your\s+new|the\s+user\s+(?:is|wants)|always|never|do\s+not)\b/m },
  { name: 'hidden instruction (HTML comment)', re: /<!--(?:(?!-->)[\s\S]){0,400}?\b(?:ignore\s+(?:previous|prior|all)|you\s+(?:must|should|will)\s+(?:now\s+)?(?:always|never|not|run|execute|send|delete|reply)|assistant\s*:|system\s*:|do\s+not\s+(?:tell|mention|reveal)|instructions?\s+for\s+(?:the\s+)?(?:ai|assistant|model|claude|agent))(?:(?!-->)[\s\S]){0,400}?-->/ },
  { name: 'hidden instruction (invisible styling)', re: /<[a-z][^>]*style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px)?\b|opacity\s*:\s*0(?:\.0+)?\b)[^"']*["'][^>]*>[^<]{3,}/ },
  { name: 'concealment from the user', re: /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|disclose\s+(?:this\s+)?to|notify|alert)\s+(?:this\s+to\s+)?the\s+user\b|\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b|\bkeep\s+(?:this|it)\s+(?:a\s+)?secret\s+from\s+the\s+user\b|\bhide\s+(?:this|it)\s+from\s+the\s+user\b/ },
];

const SET = { trigger: /ignor|disregard|forget|override|bypass|you are (?:now|no longer)|act as|pretend|roleplay|developer mode|<!--|style\s*=|tell|inform|notif|alert|secret from|hide (?:this|it)|^(?:system|assistant)\s*:/m, patterns: PATTERNS };

export default defineRule({
  id: 'security/prompt-injection',
  meta: {
    description: 'Text that tries to steer the agent: instruction overrides, role hijacks, hidden instructions, concealment from the user.',
    severity: 'warning',
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'A memory note is injected into the system prompt of every future session. A note (written by a compromised tool, a pasted web page or a poisoned repository) that says "ignore previous instructions" or hides instructions in an HTML comment becomes a standing order.',
      fix: 'Read the note: delete the instruction if nobody meant it; if it is a quoted example, put it in a code block and silence the rule for this note (see README).',
    },
    messages: { injection: '{kind}: "{excerpt}"' },
  },
  checkFile(file, { report }) {
    reportPatternHits(file, report, SET, 'injection');
  },
});
