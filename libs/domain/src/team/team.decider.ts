import { type DecideContext, type Decider, Conflict, Invalid, NotFound } from '../decider';
import { type BudgetPeriod, type KeyBudget, keyBudgetProblem } from '../key-budget/key-budget';
import type { TeamEvent } from './team.events';

export type KeyState = {
  name: string;
  hash: string;
  created_at: string;
  /** Set when rotated: valid until then. */
  expires_at?: string;
  revoked: boolean;
  budget?: KeyBudget;
};

export type TeamState =
  | { status: 'absent' }
  | {
      status: 'active';
      team_id: string;
      name: string;
      keys: Record<string, KeyState>;
      webhook_secret?: { ciphertext: string; previous_ciphertext?: string; previous_valid_until: string | null };
    };

export type TeamCommand =
  | { type: 'CreateTeam'; team_id: string; name: string }
  | { type: 'IssueApiKey'; key_id: string; key_hash: string; name: string }
  | {
      type: 'RotateApiKey';
      key_id: string;
      new_key_id: string;
      new_key_hash: string;
      overlap_seconds: number;
    }
  | { type: 'RevokeApiKey'; key_id: string }
  /** null: the key spends without a limit. */
  | { type: 'SetKeyBudget'; key_id: string; budget: { max_credits: number; per: BudgetPeriod } | null }
  | { type: 'SetWebhookSecret'; secret_ciphertext: string; overlap_seconds: number };

export const TEAM_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

const mustExist = (state: TeamState) => {
  if (state.status === 'absent') throw new NotFound('team does not exist');
  return state;
};

const activeKey = (state: TeamState, keyId: string): KeyState => {
  const team = mustExist(state);
  const key = team.keys[keyId];
  if (!key) throw new NotFound(`key ${keyId} does not exist`);
  return key;
};

const createTeam = (command: Extract<TeamCommand, { type: 'CreateTeam' }>, state: TeamState): TeamEvent[] => {
  if (!TEAM_ID_PATTERN.test(command.team_id)) {
    throw new Invalid(`team id "${command.team_id}" must match ${TEAM_ID_PATTERN.source}`);
  }
  if (state.status === 'active') return [];
  return [{ type: 'TeamCreated', data: { team_id: command.team_id, name: command.name } }];
};

const issueApiKey = (
  command: Extract<TeamCommand, { type: 'IssueApiKey' }>,
  state: TeamState,
  { now }: DecideContext,
): TeamEvent[] => {
  const team = mustExist(state);
  const existing = team.keys[command.key_id];
  if (existing) {
    if (existing.hash === command.key_hash) return [];
    throw new Conflict(`key id ${command.key_id} is already taken`);
  }
  return [
    {
      type: 'ApiKeyIssued',
      data: { key_id: command.key_id, key_hash: command.key_hash, name: command.name, created_at: now },
    },
  ];
};

const rotateApiKey = (
  command: Extract<TeamCommand, { type: 'RotateApiKey' }>,
  state: TeamState,
  { now }: DecideContext,
): TeamEvent[] => {
  const key = activeKey(state, command.key_id);
  const team = mustExist(state);
  const replacement = team.keys[command.new_key_id];
  if (replacement && replacement.hash === command.new_key_hash) return [];
  if (replacement) throw new Conflict(`key id ${command.new_key_id} is already taken`);
  if (key.revoked) throw new Conflict(`key ${command.key_id} is revoked`);
  if (key.expires_at !== undefined && key.expires_at <= now) {
    throw new Conflict(`key ${command.key_id} has expired`);
  }
  const expires = new Date(Date.parse(now) + command.overlap_seconds * 1000).toISOString();
  // The new key counts against the same budget: rotating a key does not reset what it spent.
  const budget: TeamEvent[] = key.budget
    ? [{ type: 'ApiKeyBudgetSet', data: { key_id: command.new_key_id, budget: key.budget, set_at: now } }]
    : [];
  return [
    {
      type: 'ApiKeyRotated',
      data: {
        key_id: command.key_id,
        new_key_id: command.new_key_id,
        new_key_hash: command.new_key_hash,
        name: key.name,
        created_at: now,
        old_key_expires_at: key.expires_at !== undefined && key.expires_at < expires ? key.expires_at : expires,
      },
    },
    ...budget,
  ];
};

const setKeyBudget = (
  command: Extract<TeamCommand, { type: 'SetKeyBudget' }>,
  state: TeamState,
  { now }: DecideContext,
): TeamEvent[] => {
  const key = activeKey(state, command.key_id);
  if (key.revoked) throw new Conflict(`key ${command.key_id} is revoked`);
  if (command.budget === null) {
    return key.budget ? [{ type: 'ApiKeyBudgetSet', data: { key_id: command.key_id, budget: null, set_at: now } }] : [];
  }
  const problem = keyBudgetProblem(command.budget.max_credits, command.budget.per);
  if (problem) throw new Invalid(problem);
  const budget: KeyBudget = {
    max_credits: command.budget.max_credits,
    per: command.budget.per,
    budget_id: key.budget?.budget_id ?? command.key_id,
  };
  if (key.budget?.max_credits === budget.max_credits && key.budget.per === budget.per) return [];
  return [{ type: 'ApiKeyBudgetSet', data: { key_id: command.key_id, budget, set_at: now } }];
};

const revokeApiKey = (
  command: Extract<TeamCommand, { type: 'RevokeApiKey' }>,
  state: TeamState,
  { now }: DecideContext,
): TeamEvent[] => {
  const key = activeKey(state, command.key_id);
  if (key.revoked) return [];
  return [{ type: 'ApiKeyRevoked', data: { key_id: command.key_id, revoked_at: now } }];
};

const setWebhookSecret = (
  command: Extract<TeamCommand, { type: 'SetWebhookSecret' }>,
  state: TeamState,
  { now }: DecideContext,
): TeamEvent[] => {
  const team = mustExist(state);
  if (team.webhook_secret?.ciphertext === command.secret_ciphertext) return [];
  const previous_valid_until = team.webhook_secret
    ? new Date(Date.parse(now) + command.overlap_seconds * 1000).toISOString()
    : null;
  return [{ type: 'WebhookSecretSet', data: { secret_ciphertext: command.secret_ciphertext, previous_valid_until } }];
};

const evolve = (state: TeamState, event: TeamEvent): TeamState => {
  if (event.type === 'TeamCreated') {
    return state.status === 'absent'
      ? { status: 'active', team_id: event.data.team_id, name: event.data.name, keys: {} }
      : state;
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'ApiKeyIssued':
      return {
        ...state,
        keys: {
          ...state.keys,
          [event.data.key_id]: {
            name: event.data.name,
            hash: event.data.key_hash,
            created_at: event.data.created_at,
            revoked: false,
          },
        },
      };
    case 'ApiKeyRotated': {
      const old = state.keys[event.data.key_id];
      if (!old) return state;
      return {
        ...state,
        keys: {
          ...state.keys,
          [event.data.key_id]: { ...old, expires_at: event.data.old_key_expires_at },
          [event.data.new_key_id]: {
            name: event.data.name,
            hash: event.data.new_key_hash,
            created_at: event.data.created_at,
            revoked: false,
          },
        },
      };
    }
    case 'ApiKeyRevoked': {
      const key = state.keys[event.data.key_id];
      return key ? { ...state, keys: { ...state.keys, [event.data.key_id]: { ...key, revoked: true } } } : state;
    }
    case 'ApiKeyBudgetSet': {
      const key = state.keys[event.data.key_id];
      if (!key) return state;
      const { budget: _previous, ...rest } = key;
      const next = event.data.budget ? { ...rest, budget: event.data.budget } : rest;
      return { ...state, keys: { ...state.keys, [event.data.key_id]: next } };
    }
    case 'WebhookSecretSet':
      return {
        ...state,
        webhook_secret: {
          ciphertext: event.data.secret_ciphertext,
          previous_ciphertext: state.webhook_secret?.ciphertext,
          previous_valid_until: event.data.previous_valid_until,
        },
      };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

export const teamDecider: Decider<TeamCommand, TeamEvent, TeamState> = {
  initialState: { status: 'absent' },
  decide(command, state, context) {
    switch (command.type) {
      case 'CreateTeam':
        return createTeam(command, state);
      case 'IssueApiKey':
        return issueApiKey(command, state, context);
      case 'RotateApiKey':
        return rotateApiKey(command, state, context);
      case 'RevokeApiKey':
        return revokeApiKey(command, state, context);
      case 'SetKeyBudget':
        return setKeyBudget(command, state, context);
      case 'SetWebhookSecret':
        return setWebhookSecret(command, state, context);
      default: {
        const unreachable: { type: string } = command satisfies never;
        throw new Error(`unknown command ${unreachable.type}`);
      }
    }
  },
  evolve,
};
