import { LOGO_MAX_BYTES, companyRoutes } from '@portal/contract';
import { sendFile } from '../../files/files.ts';
import type { ModuleDeps } from '../deps.ts';
import { getProfile, readLogo, removeLogo, updateProfile, uploadLogo } from './company.service.ts';
import {
  REMINDER_EVERY_MS,
  getTwoFactorPolicy,
  membersWithoutSecondFactor,
  remindTwoFactor,
  updateTwoFactorPolicy,
} from './two-factor-policy.ts';

declare module '../../jobs/runner.ts' {
  interface JobKinds {
    /** Reminds members without a second factor during an account's grace period. */
    'company.two-factor-reminders': Record<string, never>;
  }
}

/** An upload's JSON carries the file in base64 (4 characters per 3 bytes), plus its name: room for 1 MB and more. */
const LOGO_BODY_LIMIT = Math.ceil(LOGO_MAX_BYTES * 1.5);

/**
 * The company profile of an account: name, address, tax number, contact data (ADMIN and above), and its logo,
 * which every member may load.
 */
export function registerCompanyRoutes({ db, route, files, config, notifier, jobs }: ModuleDeps) {
  const embedded = config.oidc.embedded;
  route(companyRoutes.getCompanyProfile, {
    handler: async (request) => ({ data: await getProfile(db, request.account) }),
  });

  route(companyRoutes.updateCompanyProfile, {
    handler: async (request) => ({
      data: await updateProfile(db, request.user, request.account, request.body),
    }),
  });

  route(companyRoutes.uploadCompanyLogo, {
    bodyLimit: LOGO_BODY_LIMIT,
    handler: async (request) => ({
      data: await uploadLogo(db, files, request.user, request.account, request.body),
    }),
  });

  route(companyRoutes.deleteCompanyLogo, {
    handler: async (request) => ({ data: await removeLogo(db, files, request.user, request.account) }),
  });

  route(companyRoutes.getCompanyLogo, {
    handler: async (request, reply) => sendFile(request, reply, await readLogo(db, files, request.account)),
  });

  route(companyRoutes.getTwoFactorPolicy, {
    handler: async (request) => ({ data: await getTwoFactorPolicy(db, request.account, embedded) }),
  });

  route(companyRoutes.previewTwoFactorPolicy, {
    handler: async (request) => membersWithoutSecondFactor(db, request.account, request.query, embedded),
  });

  route(companyRoutes.updateTwoFactorPolicy, {
    handler: async (request) => ({
      data: await updateTwoFactorPolicy(db, notifier, request.user, request.account, request.body, embedded),
    }),
  });

  jobs.define('company.two-factor-reminders', {
    every: REMINDER_EVERY_MS,
    handler: async ({ log }) => {
      const sent = await remindTwoFactor(db, notifier, embedded);
      if (sent) log.info({ sent }, 'two-factor reminders sent');
    },
  });
}
