import type { Action, ItemKind, Suggestion } from '../proposal/schema.js';
import type { Vault, VaultFile } from '../vault/model.js';
import type { NoteFeatures, SimilarPair } from '../similarity/features.js';

/** What a stage proposes; the orchestrator adds ids, hashes and provenance. */
export interface ItemDraft {
  readonly kind: ItemKind;
  /** Files the item reads or writes (the first is the subject). */
  readonly paths: readonly string[];
  readonly evidence: Record<string, unknown>;
  readonly suggestion: Suggestion;
  readonly action: Action;
  /** The action rewrites the index or catalog: it depends on the set of notes. */
  readonly dependsOnManifest?: boolean;
  /** Shown, not proposed: why a person should look but not approve it as it stands. */
  readonly info?: string;
}

export interface StageContext {
  readonly vault: Vault;
  /** Notes the stages consider (readable, with front matter where the vault uses it). */
  readonly notes: readonly VaultFile[];
  readonly features: readonly NoteFeatures[];
  readonly pairs: readonly SimilarPair[];
  /** How many other notes link each note. */
  readonly inbound: ReadonlyMap<string, number>;
  /** Project root for reference checks, or null (path checks skipped). */
  readonly root: string | null;
  readonly rootSource: string;
  /** PATH that command references are checked against. */
  readonly path: string;
  /** Counters a stage reports in the proposal summary. */
  readonly summary: Record<string, unknown>;
}

export interface Stage {
  readonly id: string;
  readonly description: string;
  run(ctx: StageContext): ItemDraft[];
}

export const defineStage = (s: Stage): Stage => s;
