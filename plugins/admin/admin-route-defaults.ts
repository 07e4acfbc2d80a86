/** What every admin route declares: enterprise tier, policy MonitorAdmin, the `admin` docs tag. */
import type { RouteDefinition } from '../../kernel/plugin-api.ts';

/** Spread into each admin route definition. */
export const ADMIN_ROUTE: Pick<RouteDefinition, 'tags' | 'tier' | 'policy'> = {
  tags: ['admin'],
  tier: 'enterprise',
  policy: 'MonitorAdmin',
};
