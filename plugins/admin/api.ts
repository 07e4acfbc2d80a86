/** Public surface of the admin plugin: a token for running its scheduled work on demand (operations, tests). */

import { createServiceRef } from '../../kernel/service-ref.ts';

/** Container token of {@link AdminServices}. */
export const ADMIN_SERVICES = createServiceRef<AdminServices>('workbench.admin');

/** Work of the admin plugin others may trigger. */
export interface AdminServices {
  /** Evaluates every SLA over the alert window now (the job runs it on `slaAlerts.schedule`); answers the alerted interfaces. */
  evaluateSlaAlerts(): Promise<string[]>;
}
