import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore, API_KEYS, type ApiKeyDoc } from '@app/readmodels';
import { apiKeyMatches, parseApiKey, unauthorized } from '@app/platform';
import type { AuthContext } from './auth.context';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The key check shared by HTTP routes (the guard) and WebSocket upgrades: a `wr_` key whose
 * SHA-256 matches the `api_keys` read model (constant-time compare), not revoked, not past its
 * rotation overlap. The read model follows the log live, so a key revoked by the CLI is refused
 * within milliseconds.
 */
@Injectable()
export class ApiKeyAuthenticator {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async authenticate(header: string | undefined): Promise<AuthContext> {
    if (!header) throw unauthorized('Not authenticated');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized('Invalid authentication credentials');
    const parsed = parseApiKey(token);
    if (!parsed) throw unauthorized('Invalid API key');
    const doc = (await this.reads.get(API_KEYS, parsed.keyId)) as (ApiKeyDoc & { _id: string }) | undefined;
    if (!doc || !apiKeyMatches(token, doc.key_hash)) throw unauthorized('Invalid API key');
    if (doc.revoked_at) throw unauthorized('API key has been revoked');
    if (doc.expires_at && Date.parse(doc.expires_at) <= Date.now()) throw unauthorized('API key has expired');
    return { team_id: doc.team_id, key_id: doc.key_id, ...(doc.budget && { budget: doc.budget }) };
  }
}
