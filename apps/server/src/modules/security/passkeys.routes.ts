import { securityRoutes } from '@portal/contract';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { wholeList } from '../../db/paging.ts';
import { invalidField } from '../../http/errors.ts';
import type { ModuleDeps } from '../deps.ts';
import {
  finishRegistration,
  listPasskeys,
  removePasskey,
  renamePasskey,
  startRegistration,
} from './passkeys.service.ts';
import { requireEmbedded } from './security.service.ts';

/** A name of blanks only is no name (the schema counts characters, not visible ones). */
function checkedName(name: string): string {
  if (!name.trim()) throw invalidField('name', 'is required');
  return name;
}

/** The signed-in person's passkeys (settings/users, tab "Sicherheit"). */
export function registerPasskeyRoutes({ db, config, route, mailer }: ModuleDeps) {
  route(securityRoutes.listPasskeys, {
    handler: async ({ user }) => {
      requireEmbedded(config);
      const passkeys = await listPasskeys(db, user);
      return wholeList(passkeys);
    },
  });

  route(securityRoutes.passkeyRegistrationOptions, {
    handler: async ({ user }) => {
      requireEmbedded(config);
      return { data: await startRegistration(db, config, user) };
    },
  });

  route(securityRoutes.registerPasskey, {
    handler: async ({ user, body }, reply) => {
      requireEmbedded(config);
      const name = checkedName(body.name);
      const response = body.response as unknown as RegistrationResponseJSON;
      const passkey = await finishRegistration({ db, config, mailer }, user, name, response);
      reply.code(201);
      return { data: passkey };
    },
  });

  route(securityRoutes.renamePasskey, {
    handler: async ({ user, params, body }) => {
      requireEmbedded(config);
      return { data: await renamePasskey(db, user, params.id, checkedName(body.name)) };
    },
  });

  route(securityRoutes.removePasskey, {
    handler: async ({ user, params }, reply) => {
      requireEmbedded(config);
      await removePasskey(db, user, params.id);
      reply.code(204);
      return null;
    },
  });
}
