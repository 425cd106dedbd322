import { LOGO_MAX_BYTES, companyRoutes } from '@portal/contract';
import { sendFile } from '../../files/files.ts';
import type { ModuleDeps } from '../../http/route.ts';
import { getProfile, readLogo, removeLogo, updateProfile, uploadLogo } from './company.service.ts';

/** An upload's JSON carries the file in base64 (4 characters per 3 bytes), plus its name: room for 1 MB and more. */
const LOGO_BODY_LIMIT = Math.ceil(LOGO_MAX_BYTES * 1.5);

/**
 * The company profile of an account: name, address, tax number, contact data (ADMIN and above), and its logo,
 * which every member may load.
 */
export function registerCompanyRoutes({ db, route, files }: ModuleDeps) {
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
}
