/** Errors that end a command with exit 2 and one line on stderr (no stack trace). */
export class MemlintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
export class UsageError extends MemlintError {}
export class ConfigError extends MemlintError {}
export class VaultError extends MemlintError {}
export class ProposalError extends MemlintError {}
/** The vault's state folder (.memlint) is unusable or refused, or a run cannot be undone/recovered. */
export class StateError extends MemlintError {}
