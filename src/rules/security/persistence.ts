import { defineRule } from '../types.js';
import { reportPatternHits, type Pattern } from './patterns.js';

const AGENT_FILES = String.raw`(?:claude\.md|agents\.md|gemini\.md|\.cursorrules|\.clinerules|\.windsurfrules|copilot-instructions\.md|\.claude/settings(?:\.local)?\.json)`;

const PATTERNS: Pattern[] = [
  { name: 'writing to SSH keys or config', re: /(?:>>?|\btee\b(?:\s+-a)?|\bcp\b|\bmv\b|\becho\b[^\n]{0,200}>>?)\s*[^\s]*\.ssh\/(?:authorized_keys2?|config)\b|\bssh-copy-id\b|\bauthorized_keys\b[^\n]{0,40}\b(?:append|add|write|insert)/ },
  // An instruction (imperative, at the start of a sentence or list item) to change an agent's own instruction files.
  { name: 'editing agent instruction files', re: new RegExp(String.raw`(?<=(?:^|[.!?]\s|\n)[ \t]*(?:[-*][ \t]+)?)(?:always\s+|automatically\s+|silently\s+|quietly\s+)?(?:append|prepend|insert|write|add|inject|overwrite|replace|modify|edit)\s+(?:the\s+following\s+|this\s+(?:line|rule|text)\s+|these\s+(?:lines|rules)\s+)?(?:(?:to|into|in)\s+)?(?:the\s+|your\s+|every\s+)?(?:~\/)?(?:[\w.-]+\/)*${AGENT_FILES}`, 'm') },
  { name: 'editing agent instruction files', re: new RegExp(String.raw`(?:>>?|\btee\b(?:\s+-a)?)\s*(?:~\/)?(?:[\w.-]+\/)*${AGENT_FILES}`) },
];

const SET = { trigger: /\.ssh|authorized_keys|ssh-copy-id|claude\.md|agents\.md|gemini\.md|cursorrules|clinerules|windsurfrules|copilot-instructions|\.claude\/settings/, patterns: PATTERNS };

export default defineRule({
  id: 'security/persistence',
  meta: {
    description: 'Memory that tells the agent to plant access or rewrite its own instructions: authorized_keys, ~/.ssh, CLAUDE.md, AGENTS.md, .cursorrules.',
    severity: 'warning',
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'Persistence outlives the session: an SSH key appended to authorized_keys, or an instruction written into CLAUDE.md or .cursorrules, keeps working after the memory that planted it is gone.',
      fix: 'Delete the instruction. Changes to agent instruction files should be made by a person, not remembered as a standing order.',
    },
    messages: { persist: '{kind}: "{excerpt}"' },
  },
  checkFile(file, { report }) {
    reportPatternHits(file, report, SET, 'persist');
  },
});
