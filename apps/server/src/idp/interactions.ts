import type { FastifyInstance } from 'fastify';
import { consentFlow } from './consent.ts';
import { registerEmailChangeLink } from './email-change.ts';
import { registerEmailVerificationFlow } from './email-verification.ts';
import { createInteractionKit, type InteractionCall, type InteractionDeps } from './interaction-kit.ts';
import { registerLoginFlow } from './login.ts';
import { registerPasskeySecondFactor } from './passkey-sign-in.ts';
import { registerPasswordResetFlow } from './password-reset.ts';
import { registerRegistrationFlow } from './registration.ts';
import { registerSecondFactorPage } from './second-factor.ts';
import { registerTotpSecondFactor } from './totp-sign-in.ts';

/**
 * The sign-in pages of a pending authorization, one flow per file. The interaction's own page shows the flow of
 * the pending prompt; the login page is the default.
 */
export function registerInteractionRoutes(app: FastifyInstance, deps: InteractionDeps): void {
  const kit = createInteractionKit(app, deps);
  const login = registerLoginFlow(kit);
  // The second step after a right password; each kind of second factor adds its section and form posts to it.
  const secondFactor = registerSecondFactorPage(kit);
  registerTotpSecondFactor(kit, secondFactor);
  registerPasskeySecondFactor(kit, secondFactor);
  const registration = registerRegistrationFlow(kit);
  registerPasswordResetFlow(kit);
  const emailVerification = registerEmailVerificationFlow(kit);
  registerEmailChangeLink(kit);
  const consent = consentFlow(kit);

  const byPrompt: Record<string, (call: InteractionCall) => unknown> = {
    create: registration.show,
    verify_email: emailVerification.show,
    consent: consent.show,
  };
  kit.interactionRoute('GET', '', async (call) =>
    (byPrompt[call.interaction.prompt.name] ?? login.show)(call),
  );
}
