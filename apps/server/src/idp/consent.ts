import type { InteractionCall, InteractionKit } from './interaction-kit.ts';

/**
 * Consent: the first-party client only, granted what the consent prompt misses without asking (there is no consent
 * page); any other client's interaction has expired.
 */
export function consentFlow(kit: InteractionKit) {
  const { provider, config } = kit.deps;
  return {
    async show(call: InteractionCall) {
      const { interaction } = call;
      const { accountId } = interaction.session ?? {};
      const clientId = String(interaction.params.client_id);
      if (!accountId || clientId !== config.oidc.clientId) return kit.expired(call);
      const grant = interaction.grantId
        ? await provider.Grant.find(interaction.grantId)
        : new provider.Grant({ accountId, clientId });
      if (!grant) return kit.expired(call);
      const details = interaction.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
      if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      return kit.finish(call, { consent: { grantId: await grant.save() } });
    },
  };
}
