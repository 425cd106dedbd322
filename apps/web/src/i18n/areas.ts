import type { MessageTree } from './pick-keys.ts';

/**
 * The areas of the web app's texts (decision 218). Each language's messages.json stays the one source; an area is
 * the part of it under the key paths in its `keys` query, cut out at build time by the `portal-message-areas` plugin
 * (vite.config.ts) into a chunk of its own per language. The shell's area loads with the app; a route's page loader
 * names the areas its page needs (`page-loaders.ts`), which load beside its chunk. Most areas are one top-level
 * section; the shell and the dashboard take only the keys they show of others, so the first page stays small.
 * The globs must be literal for Vite: one per area.
 */
type AreaFiles = Record<string, () => Promise<MessageTree>>;

export const AREAS = {
  shell: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: {
      area: 'shell',
      keys: 'app,nav,routes,shell,auth,errors,userMenu,accountSwitcher,common,forms,notFound,maintenance,billing.pastDue,billing.details.saved,billing.method.cardRemoved,company.deletionScheduled,company.twoFactor.enforcedTitle,company.twoFactor.enforcedText,company.twoFactor.switchAccount,company.twoFactor.graceBanner,company.twoFactor.graceAction,company.twoFactor.dismiss,notifications.unreadBadge,notifications.preferences.saved',
    },
  }),
  dashboard: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: {
      area: 'dashboard',
      keys: 'dashboard,invite.accept,invite.acceptName,invite.accepted,invite.decline,invite.declineName,invite.declineTitle,invite.declineMessage,invite.declined,invite.notVerified,ownership.incomingTitle,ownership.incomingText,ownership.incomingUntil,ownership.accept,ownership.acceptTitle,ownership.acceptMessage,ownership.accepted,ownership.decline,ownership.declineTitle,ownership.declineMessage,ownership.declined,ownership.outgoingText,ownership.outgoingAction,ownership.errors.expired,ownership.errors.decided',
    },
  }),
  abaclik: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'abaclik', keys: 'abaclik' },
  }),
  accounts: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'accounts', keys: 'accounts' },
  }),
  createAccount: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'createAccount', keys: 'createAccount' },
  }),
  onboarding: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'onboarding', keys: 'onboarding' },
  }),
  invite: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'invite', keys: 'invite' },
  }),
  billing: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'billing', keys: 'billing' },
  }),
  billingStaff: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'billingStaff', keys: 'billingStaff' },
  }),
  announcements: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'announcements', keys: 'announcements' },
  }),
  lessonAuthoring: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'lessonAuthoring', keys: 'lessonAuthoring' },
  }),
  directory: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'directory', keys: 'directory' },
  }),
  subscriptions: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'subscriptions', keys: 'subscriptions' },
  }),
  deepcloud: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'deepcloud', keys: 'deepcloud' },
  }),
  notifications: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'notifications', keys: 'notifications' },
  }),
  logs: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'logs', keys: 'logs' },
  }),
  lessons: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'lessons', keys: 'lessons' },
  }),
  terms: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'terms', keys: 'terms' },
  }),
  peppershop: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'peppershop', keys: 'peppershop' },
  }),
  company: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'company', keys: 'company' },
  }),
  members: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'members', keys: 'members' },
  }),
  profile: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'profile', keys: 'profile' },
  }),
  security: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'security', keys: 'security' },
  }),
  ownership: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'ownership', keys: 'ownership' },
  }),
  support: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'support', keys: 'support' },
  }),
  supportAgent: import.meta.glob<MessageTree>('./locales/*/messages.json', {
    import: 'default',
    query: { area: 'supportAgent', keys: 'supportAgent' },
  }),
} satisfies Record<string, AreaFiles>;

export type Area = keyof typeof AREAS;
