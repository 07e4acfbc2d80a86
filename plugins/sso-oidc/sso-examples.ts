/**
 * Example requests and answers of the single sign-on routes (provider configuration and browser sign-in), shown in
 * the monitor base's OpenAPI document: the docs page pre-fills "Try it out" with them. The provider is a Keycloak
 * realm of the hospital's identity team.
 */

const ISSUER = 'https://sso.stmarys-health.org/realms/clinical';

const PROVIDER = {
  providerType: 'oidc',
  displayName: "St Mary's Health sign-in",
  clientId: 'integration-workbench',
  issuerUrl: ISSUER,
  issuer: ISSUER,
  jitProvisioning: true,
  audiences: ['workbench-api'],
  clientSecretSet: true,
  configuredAt: '2026-01-10T11:04:27.518Z',
  updatedAt: '2026-01-10T11:04:27.518Z',
};

/** Examples of the single sign-on routes, by route. */
export const SSO_EXAMPLES = {
  listProviders: { response: [PROVIDER] },
  configure: {
    body: {
      providerType: 'oidc',
      displayName: PROVIDER.displayName,
      clientId: PROVIDER.clientId,
      clientSecret: 'k3YbT9q2VhXw7LmZ4pR8sN1cD6fG0jUe',
      issuerUrl: ISSUER,
      jitProvisioning: true,
      audiences: ['workbench-api'],
    },
    response: PROVIDER,
  },
  removeProvider: { params: { providerType: 'oidc' }, response: { providerType: 'oidc', removed: true } },
  /** The answer is a 302 to the provider's authorization endpoint, with an empty body. */
  login: { query: { returnTo: '/docs' }, response: '' },
  callback: {
    query: {
      code: 'b1f3e2c4-57a9-4d0e-9c1b-8e2f6a7d3c10.5c8e1f2a-0b9d-4e7c-a6f3-1d2e9b8c7a64',
      state: 'Zq3xV9mT1kP0sL8dR4wN7yB2cF6hJ5gA',
      iss: ISSUER,
    },
    response:
      '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/docs"><title>Signed in</title>' +
      '<p>Signed in as jane.doe@stmarys-health.org. <a href="/docs">Continue</a></p>',
  },
  logout: { response: { success: true, data: { signedOut: true }, error: null } },
  me: {
    response: {
      authenticated: true,
      userId: 'jane.doe@stmarys-health.org',
      kind: 'session',
      roles: ['MonitorOperator'],
      organizationId: 'radiology-integrations',
    },
  },
};
