/** Error catalogue of the single sign-on plugin. */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the single sign-on routes and token checks raise. */
export const ssoErrors = defineErrorCatalogue({
  SSO_ISSUER_INSECURE: {
    status: 400,
    message: 'issuerUrl "{issuerUrl}" must use https (plain http is accepted only for a loopback address).',
  },
  SSO_DISCOVERY_FAILED: { status: 400, message: 'OpenID discovery of "{issuerUrl}" failed: {reason}' },
  SSO_SIGN_IN_FAILED: { status: 400, message: 'Sign-in failed: {reason}' },
  SSO_USER_UNKNOWN: {
    status: 403,
    message: 'User "{userId}" signed in with {issuer} but has no role here, and just-in-time provisioning is off; ask an admin to assign a role.',
  },
  SSO_NOT_CONFIGURED: { status: 404, message: 'No single sign-on provider is configured; an admin configures one with POST /api/monitor/sso/configure.' },
});
