/** The single sign-on plugin's config section (`plugins.sso-oidc`): session length, sign-in timeout, secret key file. */
import { z } from 'zod';

/** Schema of the section. */
export const ssoConfigSchema = z
  .object({
    /** Hours a browser session lasts. */
    sessionHours: z.number().int().min(1).max(720).default(8),
    /** Minutes a started sign-in may take. */
    loginTimeoutMinutes: z.number().int().min(1).max(60).default(10),
    /** Name of the key file (inside the data dir) sealing the client secret. */
    secretKeyFile: z.string().min(1).default('sso-secret.key'),
  })
  .strict();

/** The single sign-on plugin's validated config. */
export type SsoConfig = z.infer<typeof ssoConfigSchema>;
