import { z } from 'zod';

/** Request and response shapes of the identity, members and audit routes. */
export const userSchema = z.object({ user_id: z.string(), email: z.string(), admin: z.boolean(), created_at: z.string() });

export const credentialsBody = z.object({ email: z.string().trim().min(3).max(320), password: z.string().min(1).max(1024) });

export const sessionResponse = z.object({
  auth: z.enum(['on', 'off']),
  user: userSchema.nullable(),
  /** Send it in x-csrf-token with every state-changing request of this cookie session. */
  csrf_token: z.string().nullable(),
  needs_setup: z.boolean(),
});

export const tokenSchema = z.object({
  token_id: z.string(),
  user_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

export const auditSchema = z.object({
  audit_id: z.string(),
  at: z.string(),
  user_id: z.string().nullable(),
  action: z.string(),
  collection_id: z.string().nullable(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
