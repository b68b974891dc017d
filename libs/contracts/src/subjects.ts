/**
 * Every bus subject is named here and nowhere else. Naming: `<service>.<operation>`; the service
 * part is also the NATS queue group of the service that answers it.
 */

/** The services behind the bus (the gateway only sends, so it has no subjects of its own). */
export const SERVICES = ['search', 'research', 'findall', 'monitors', 'extraction', 'webhooks', 'projector'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const subjects = {
  /** Liveness of a service over the bus (gateway /readyz). Request `{}`, reply HealthReply. */
  health: <S extends ServiceName>(service: S) => `${service}.health` as const,
};

export type HealthSubject = ReturnType<typeof subjects.health<ServiceName>>;
