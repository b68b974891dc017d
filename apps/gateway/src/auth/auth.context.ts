import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { KeyBudget } from '@app/domain';

/** Who is calling: set on the request by the API key guard. */
export interface AuthContext {
  team_id: string;
  key_id: string;
  /** The key's spending limit, when it has one (every charge of its calls and runs counts against it). */
  budget?: KeyBudget;
}

export type AuthedRequest = { auth?: AuthContext; id: string };

export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthedRequest>().auth;
  if (!auth) throw new Error('route is public: no auth context');
  return auth;
});

/** Routes outside /v1 operations (health, metrics, the OpenAPI document) need no key. */
export const PUBLIC_ROUTE = 'public-route';
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
