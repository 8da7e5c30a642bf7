import { defineRule } from '../types.js';
import { matchedOnView, reportPatternHits, type Pattern } from './patterns.js';
import type { LetterRun } from '../../util/keywords.js';

/** Bounded filler between attack words (a few words, never unbounded: no backtracking blow-up). */
const W = (n: number): string => String.raw`(?:[\w'’-]+\s+){0,${n}}?`;
const OVERRIDE_VERB = String.raw`(?:ignore|disregard|forget|override|bypass|discard|abandon)`;
const EARLIER = String.raw`(?:previous|prior|above|earlier|preceding|original|foregoing|all|any|every|your|the|these|those|system|safety|initial)`;
const ORDERS = String.raw`(?:instructions?|prompts?|directives?|directions|guidelines|programming|commands|orders)`;
const RULES = String.raw`(?:rules|constraints|guardrails|restrictions|policies|limitations)`;

/** A spaced-out phrase ("i g n o r e  p r e v i o u s …") read without its gaps. */
const SPACELESS = new RegExp(
  String.raw`(?:ignore|disregard|forget|override|bypass)(?:all|any|every|the|your|of)*(?:previous|prior|above|earlier|system|safety)?(?:instructions?|prompts?|directives?|rules|guidelines)|(?:youarenow|pretendtobe|pretendyouare|systemprompt|developermode|donottelltheuser|jailbreak)`,
);

/**
 * What every spaced-out phrase holds: 7 single letters, each two apart by 1–3 of these separators (the
 * pattern's regex below is made of it); the keyword pass finds such a run, and the regex runs only then.
 */
const SPACED_OUT: LetterRun = { letters: 7, separators: ' \t._·*|-', gap: 3 };

/** Matched on normalized text (NFKC, confusables skeleton, invisible characters dropped, lower case). */
export const PATTERNS: Pattern[] = [
  {
    name: 'instruction override',
    pre: /ignor|disregard|forget|overrid|bypass|discard|abandon/,
    re: new RegExp(
      String.raw`\b${OVERRIDE_VERB}\s+${W(6)}${EARLIER}\s+${W(3)}${ORDERS}\b|\b(?:disregard|forget|bypass|abandon)\s+${W(4)}(?:your|all|any|previous|prior|above|safety|these|those)\s+${W(3)}${RULES}\b|\bforget\s+(?:about\s+)?(?:everything|all(?:\s+of\s+it)?|anything)\s+(?:above|before|(?:that\s+)?(?:you\s+(?:were|have\s+been)\s+told|i\s+(?:said|told\s+you))|so\s+far|up\s+to\s+(?:here|now))|\bignore\s+(?:everything|all|anything)\s+(?:above|before|(?:written\s+)?(?:above|before)\s+this)\b|\bsystem\s+prompt\s+override\b`,
    ),
  },
  {
    name: 'instruction override (spaced-out letters)',
    run: SPACED_OUT,
    re: new RegExp(
      String.raw`(?:^|[\s"'(>*_])[a-z](?:[ \t._·*|-]{1,${SPACED_OUT.gap}}[a-z]){${SPACED_OUT.letters - 1},}(?![a-z])`,
      'm',
    ),
    accept: (m) => SPACELESS.test(m[0].replace(/[^a-z]/g, '')),
  },
  {
    name: 'role hijack',
    pre: /you are|you're|from now on|pretend|act as|behave as|roleplay|developer mode|respond|answer|reply|have been|name yourself|your new|system|assistant/,
    // Per alternative, a word its every match holds: `you` (you are … now, from now on you, act as if … you,
    // you have been, yourself, your new), pretend, the persona words, developer, without, system or assistant.
    needs: /you|pretend|unrestricted|jailbroken|unfiltered|uncensored|evil|dan|developer|without|system|assistant/,
    re: new RegExp(
      String.raw`\byou\s+are\s+${W(3)}now\s+(?:a|an|the|my|no\s+longer)\s+(?!(?:ready|done|able|set|on|in|at|logged|connected|finished)\b)|\bfrom\s+now\s+on,?\s+you\s+(?:are|will\s+be|act\s+as)\s+(?:a|an|the)\b|\bpretend\s+${W(4)}(?:you\s+are|to\s+be|you're)\s+|\bact\s+as\s+(?:if|though)\s+${W(4)}you\s+${W(3)}(?:have\s+no|don't\s+have|do\s+not\s+have|are\s+not\s+bound|are\s+free)|\b(?:act|behave|roleplay)\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|unfiltered|uncensored|evil|dan)\b|\bdeveloper\s+mode\s+(?:enabled|on|activated)\b|\b(?:respond|answer|reply)\s+without\s+${W(3)}(?:restrictions|limitations|filters|safety|censorship)|\byou\s+have\s+been\s+${W(3)}(?:updated|upgraded|patched|reprogrammed)\s+to\b|\bname\s+yourself\s+\w+|\byour\s+new\s+(?:identity|name|persona|role)\s+is\b|^(?:system|assistant)\s*:\s+(?:you\s+(?:are|must|will)|ignore|from\s+now\s+on|your\s+new|the\s+user\s+(?:is|wants)|always|never|do\s+not)\b`,
      'm',
    ),
  },
  {
    name: 'system prompt leak',
    pre: /prompt|instructions|message/,
    re: new RegExp(
      String.raw`\b(?:output|print|reveal|show|repeat|display|leak|dump|disclose|echo|recite|tell\s+me)\s+${W(4)}(?:system|initial|original|hidden|developer)\s+(?:prompt|instructions|message)s?\b`,
    ),
  },
  {
    name: 'translate and execute',
    pre: /translat/,
    re: /\btranslate\s+[^\n]{0,200}?\s+into\s+\w+(?:[\s-]+\w+){0,2}\s+and\s+(?:then\s+)?(?:execute|run|eval(?:uate)?)\b/,
  },
  {
    name: 'hidden instruction (HTML comment)',
    pre: /<!--/,
    outsideCode: true,
    re: /<!--(?:(?!-->)[^]){0,600}?(?:(?<![a-z])(?:ignore|override|system|secret|hidden|disregard|jailbreak|instructions?\s+for)(?![a-z])|\b(?:you|assistant|ai|agent|model|claude|llm)\s+(?:must|should|will|shall|are\s+to|need\s+to)\s|\b(?:assistant|ai|agent|model|claude|llm|chatgpt|gpt)\s*[:,]\s*\w|\bfrom\s+now\s+on\b|\bwhen\s+(?:you|the\s+(?:assistant|ai|agent|model))\s+(?:read|see|summari[sz]e|process)|\b(?:do\s+not|don't|never)\s+(?:tell|mention|reveal|show|inform)\b|\b(?:send|email|upload|forward|exfiltrate|post)\s+[^\n]{0,80}\b(?:to|into)\s+\S+@|\b(?:send|email|upload|forward|post)\s+[^\n]{0,80}https?:\/\/)(?:(?!-->)[^]){0,600}?-->/,
  },
  {
    name: 'hidden instruction (invisible styling)',
    pre: /style|hidden/,
    outsideCode: true,
    re: /<[a-z][^>]{0,300}?style\s*=\s*["'][^"']{0,300}?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\b|opacity\s*:\s*0(?:\.0+)?\b)[^"']*["'][^>]*>[^<]{3,}|<[a-z]+\s(?:[^>]{0,200}?\s)?(?:hidden|aria-hidden\s*=\s*["']true["'])(?:\s*=\s*["'](?:hidden|true)?["'])?(?=[\s/>])[^>]*>\s*[^<\s][^<]{2,}/,
  },
  {
    name: 'concealment from the user',
    pre: /the user/,
    re: new RegExp(
      String.raw`\b(?:do\s+not|don't|never)\s+${W(3)}(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|disclose\s+(?:this\s+)?to|notify|alert)\s+${W(3)}the\s+user\b|\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b|\bkeep\s+(?:this|it)\s+(?:a\s+)?secret\s+from\s+the\s+user\b|\bhide\s+(?:this|it)\s+from\s+the\s+user\b`,
    ),
  },
  // Command-and-control / promptware (Brainworm): anchored on C2 vocabulary, not on firm English.
  {
    name: 'command and control (promptware)',
    pre: /regist|heartbeat|beacon|tasking|tasks from|you must|connect to the network|liner|disk|c2|command/,
    re: new RegExp(
      String.raw`\bregister\s+(?:yourself\s+|this\s+(?:agent|session|machine)\s+)?as\s+an?\s+(?:\w+\s+)?node\b|\b(?:send|emit|post)\s+(?:a\s+|periodic\s+|regular\s+)?(?:heartbeats?|beacons?)\s+(?:to|with)\b|\bbeacon\s+(?:back\s+)?(?:to|with)\s|\bpull\s+(?:down\s+)?(?:new\s+)?tasking\b|\b(?:pull|fetch|receive|get)\s+(?:down\s+)?(?:new\s+)?tasks\s+from\s+(?:the\s+)?(?:controller|orchestrator|c2|command\s+server|mothership|network)\b|\bperform\s+(?:the\s+)?tasking\b|\byou\s+must\s+${W(3)}(?:register\s+as|connect\s+to\s+the\s+network|beacon|report\s+(?:back\s+)?to\s+the\s+(?:controller|orchestrator|c2|network|node))\b|\bconnect\s+to\s+the\s+network\s+to\s+help\b|\bonly\s+use\s+one[\s-]?liners?\b|\bnever\s+${W(6)}(?:create|write)\s+${W(6)}(?:script|file)s?\s+${W(6)}disk\b|\bc2\s+(?:server|channel|infrastructure|beacon|endpoint|node|implant)s?\b|\bcommand[\s-]+and[\s-]+control\b`,
    ),
  },
  {
    name: 'named C2 framework',
    pre: /cobalt|metasploit|meterpreter|brainworm|poshc2|pupy|sliver|havoc|mythic|covenant|merlin|empire/,
    re: /\b(?:cobalt\s*strike|metasploit|meterpreter|brainworm|poshc2|pupy\s*rat)\b|\b(?:sliver|havoc|mythic|covenant|merlin|empire)\s+(?:c2|implant|beacon|teamserver|listener|framework|agent|payload)s?\b|\b(?:c2|implant)s?\s+(?:like|such\s+as|e\.g\.)\s+(?:sliver|havoc|mythic)\b/,
  },
];

// Every pattern but the spaced-out one names its keywords (`pre`), that one its letter run: found in one pass
// over the normalized view, shared with the other rules matched on it (patterns.ts).
const SET = matchedOnView({ patterns: PATTERNS });

export default defineRule({
  id: 'security/prompt-injection',
  meta: {
    description:
      'Text that tries to steer the agent: instruction overrides, role hijacks, system-prompt leaks, hidden instructions, concealment from the user, command-and-control promptware.',
    severity: 'warning',
    escalates: true,
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'A memory note is injected into the system prompt of every future session. A note (written by a compromised tool, a pasted web page or a poisoned repository) that says "ignore previous instructions", hides instructions in an HTML comment, or tells the agent to register with a controller and pull tasking (Brainworm-style promptware) becomes a standing order.',
      fix: 'Read the note: delete the instruction if nobody meant it; if it is a quoted example, put it in a code block and silence the rule for this note (see README).',
    },
    messages: { injection: '{kind}: "{excerpt}"' },
  },
  checkFile(file, { report }) {
    reportPatternHits(file, report, SET, 'injection');
  },
});
