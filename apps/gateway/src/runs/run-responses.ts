import { Nullable, type Static, Type } from '@app/domain';

/**
 * What the routes every run kind shares answer besides its view, declared once beside them: the
 * routes' types are `Static` of these schemas, and the OpenAPI document serves the schemas.
 */
export const RunHistorySchema = Type.Object(
  {
    events: Type.Array(
      Type.Object({
        revision: Type.String(),
        position: Type.String(),
        type: Type.String(),
        at: Type.String(),
        data: Type.Unknown(),
        metadata: Type.Object({
          correlation_id: Nullable(Type.String()),
          causation_id: Nullable(Type.String()),
          request_id: Nullable(Type.String()),
          key_id: Nullable(Type.String()),
        }),
      }),
    ),
    total: Type.Integer(),
  },
  { $id: 'RunHistory', description: "Every event of the entity's stream, oldest first (audit)" },
);
export type RunHistory = Static<typeof RunHistorySchema>;

/** One public stream event (API.md "Streams"): its id (resume after it), name and payload. */
export const PublicEventSchema = Type.Object({ id: Type.String(), event: Type.String(), data: Type.Unknown() });
export type PublicEvent = Static<typeof PublicEventSchema>;

export const RunEventsPageSchema = Type.Object(
  { events: Type.Array(PublicEventSchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
  { $id: 'RunEventsPage' },
);
export type RunEventsPage = Static<typeof RunEventsPageSchema>;

/** The view of a run kind registered without a schema of its own. */
export const RunViewSchema = Type.Unsafe<Record<string, unknown>>({
  $id: 'RunView',
  type: 'object',
  additionalProperties: true,
  description: 'The run as its kind shows it',
});
