import { defineRule } from '../types.js';
import { matchedOnView, reportPatternHits, type Pattern } from './patterns.js';

const AGENT_FILES = String.raw`(?:claude\.md|agents\.md|gemini\.md|soul\.md|\.cursorrules|\.clinerules|\.windsurfrules|copilot-instructions\.md|\.claude/settings(?:\.local)?\.json|\.hermes/(?:config\.ya?ml|\.env|soul\.md|memories/(?:memory|user)\.md))`;
const HOME = String.raw`(?:~|\$home|\$\{home\}|/home/[\w.-]+|/root|/users/[\w.-]+)`;
const SHELL_RC = String.raw`${HOME}/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|config/fish/config\.fish)`;
/** What makes a line appended to a shell start-up file or a cron table a backdoor: it fetches or runs remote code. */
const PAYLOAD = String.raw`(?:\bcurl\b|\bwget\b|\bnc\b|\bncat\b|\bsocat\b|/dev/tcp/|\bbash\s+-i\b|\bsh\s+-i\b|\beval\b|base64\s+(?:-d|--decode)|\bpython3?\s+-c\b|\bperl\s+-e\b|\bnohup\b|\bld_preload\b|\bprompt_command\b|\balias\s+(?:sudo|ssh|git|ls|cd)=)`;

/** The agent files' names as literals: both agent-file patterns need one (their keyword prefilter). */
const AGENT_FILE_WORDS =
  /claude\.md|agents\.md|gemini\.md|soul\.md|\.cursorrules|\.clinerules|\.windsurfrules|copilot-instructions\.md|\.claude\/settings|\.hermes\//;

export const PATTERNS: Pattern[] = [
  {
    name: 'writing to SSH keys or config',
    pre: /\.ssh|authorized_keys|ssh-copy-id/,
    re: new RegExp(
      String.raw`(?:>>?|\btee\b(?:\s+-a)?|\bcp\b|\bmv\b|\becho\b[^\n]{0,200}>>?)\s*[^\s]*\.ssh/(?:authorized_keys2?|config)\b|\bssh-copy-id\b|\bauthorized_keys\b[^\n]{0,40}\b(?:append|add|write|insert)|\b(?:write|append|add|insert|put|copy|paste|plant)\s+${"(?:[\\w'-]+\\s+){0,5}?"}(?:to|into|in)\s+(?:the\s+|your\s+)?(?:\S*/)?authorized_keys2?\b|\b(?:cp|mv|install|scp|ln\s+-sf?)\s+(?:-\S+\s+)*\S+\s+${HOME}/\.ssh/`,
    ),
  },
  // An instruction (imperative, at the start of a sentence or list item) to change an agent's own instruction files.
  {
    name: 'editing agent instruction files',
    pre: AGENT_FILE_WORDS,
    re: new RegExp(
      String.raw`(?<=(?:^|[.!?:]\s|\n)[ \t]*(?:[-*][ \t]+|\d+[.)][ \t]+)?)(?:always\s+|automatically\s+|silently\s+|quietly\s+|please\s+)?(?:append|prepend|insert|write|add|inject|overwrite|replace|modify|edit|update|change|rewrite|patch)\s+(?:the\s+following\s+|this\s+(?:line|rule|text)\s+|these\s+(?:lines|rules)\s+)?(?:(?:to|into|in)\s+)?(?:the\s+|your\s+|every\s+|each\s+)?(?:${HOME}/)?(?:[\w.-]+/)*${AGENT_FILES}`,
      'm',
    ),
  },
  {
    name: 'editing agent instruction files',
    pre: AGENT_FILE_WORDS,
    re: new RegExp(String.raw`(?:>>?|\btee\b(?:\s+-a)?)\s*(?:${HOME}/)?(?:[\w.-]+/)*${AGENT_FILES}`),
  },
  {
    name: 'appending a payload to a shell start-up file',
    pre: /rc\b|profile|zshenv|zlogin|config\.fish/,
    // Both alternatives append: `>>` or `tee -a`.
    needs: />>|tee/,
    re: new RegExp(
      String.raw`${PAYLOAD}[^\n]{0,300}(?:>>|\btee\s+-a)\s*["']?${SHELL_RC}\b|(?:>>|\btee\s+-a)\s*["']?${SHELL_RC}\b[^\n]{0,40}<<[^\n]{0,40}\n(?:[^\n]*\n){0,20}?[^\n]*${PAYLOAD}`,
    ),
  },
  {
    name: 'installing a cron job',
    pre: /cron|@reboot|@hourly|@daily|\* \*/,
    re: new RegExp(
      String.raw`\|\s*crontab\s+-(?:\s|$)|>>?\s*/etc/cron(?:tab|\.d/|\.(?:hourly|daily|weekly|monthly)/)|/var/spool/cron/|^[ \t>*-]*(?:@reboot|@hourly|@daily|(?:[\d*/,-]+[ \t]+){5})[^\n]{0,200}${PAYLOAD}`,
      'm',
    ),
  },
];

const SET = matchedOnView({
  trigger:
    /\.ssh|authorized_keys|ssh-copy-id|claude\.md|agents\.md|gemini\.md|soul\.md|cursorrules|clinerules|windsurfrules|copilot-instructions|\.claude\/settings|\.hermes\/|rc\b|profile|zshenv|zlogin|config\.fish|cron|@reboot|@hourly|@daily/,
  patterns: PATTERNS,
});

export default defineRule({
  id: 'security/persistence',
  meta: {
    description:
      'Memory that tells the agent to plant access or rewrite its own instructions: authorized_keys, ~/.ssh, CLAUDE.md, AGENTS.md, SOUL.md, .hermes/config.yaml, .cursorrules, payloads appended to ~/.bashrc, cron jobs that fetch code.',
    severity: 'warning',
    escalates: true,
    tags: ['security'],
    kinds: ['claude', 'hermes'],
    docs: {
      why: 'Persistence outlives the session: an SSH key appended to authorized_keys, a download-and-run line in ~/.bashrc or a crontab, or an instruction written into CLAUDE.md, SOUL.md or .cursorrules keeps working after the memory that planted it is gone.',
      fix: 'Delete the instruction. Changes to agent instruction files should be made by a person, not remembered as a standing order. Not flagged: an ordinary `export PATH=… >> ~/.zshrc` or a cron line that runs a local script.',
    },
    messages: { persist: '{kind}: "{excerpt}"' },
  },
  checkFile(file, { report }) {
    reportPatternHits(file, report, SET, 'persist');
  },
});
