import { z } from 'zod';

/** The body of login and first-admin setup (the response shapes are in @pinpoint/core's contract). */
export const credentialsBody = z.object({ email: z.string().trim().min(3).max(320), password: z.string().min(1).max(1024) });
