import type { Queryable } from '../db/client.ts';
import type { DemoLogin } from './users.ts';

/** Fixed ids of the demo announcements (the journeys and docs name them). */
export const DEMO_ANNOUNCEMENTS = {
  maintenance: '6f1c2b1e-0031-4000-8000-000000000001',
  draft: '6f1c2b1e-0031-4000-8000-000000000002',
} as const;

const MAINTENANCE = {
  title: {
    de: 'Wartung der Rechnungsstellung',
    en: 'Maintenance of invoicing',
    fr: 'Maintenance de la facturation',
    it: 'Manutenzione della fatturazione',
  },
  body: {
    de: 'Während der Wartung können **Rechnungen als PDF** kurz nicht geladen werden. Alles andere funktioniert wie gewohnt.\n\nFragen? Schreiben Sie uns über den [Support](https://www.example.com/support).',
    en: 'During the maintenance **invoice PDFs** may briefly not load. Everything else works as usual.\n\nQuestions? Write to us through [support](https://www.example.com/support).',
    fr: 'Pendant la maintenance, les **factures PDF** peuvent brièvement ne pas se charger. Tout le reste fonctionne normalement.',
    it: 'Durante la manutenzione le **fatture in PDF** potrebbero per breve tempo non caricarsi. Tutto il resto funziona come di consueto.',
  },
};

const DRAFT = {
  title: { de: 'Neue Lektion: Rechnungen verstehen' },
  body: {
    de: 'Im Kurs «Erste Schritte» gibt es eine neue Lektion:\n\n- wie eine Rechnung aufgebaut ist\n- wie Sie mit QR-Rechnung bezahlen',
  },
};

/**
 * A published maintenance announcement whose window covers the start of the demo (from an hour before to three
 * days after, renewed at each start: renewDemoAnnouncements) and that every member of the demo accounts has in their inbox, so the shell's
 * bar shows; and a draft for next week (portal-admin@ publishes it). The inbox entries are written once.
 */
export async function seedDemoAnnouncements(tx: Queryable, ids: Map<DemoLogin, string>) {
  const admin = ids.get('portalAdmin')!;
  await tx.query(
    `insert into announcements (uuid, kind, title, body, audience, roles, starts_at, ends_at, status, created_by,
                                updated_by, published_by, published_at, fanned_out_at)
     values ($1, 'maintenance', $2, $3, 'all', 'everyone', now() - interval '1 hour', now() + interval '3 days',
             'published', $4, $4, $4, now() - interval '1 hour', now() - interval '1 hour')
     on conflict (uuid) do update set starts_at = excluded.starts_at, ends_at = excluded.ends_at`,
    [
      DEMO_ANNOUNCEMENTS.maintenance,
      JSON.stringify(MAINTENANCE.title),
      JSON.stringify(MAINTENANCE.body),
      admin,
    ],
  );
  await tx.query(
    `insert into announcements (uuid, kind, title, body, audience, roles, starts_at, status, created_by, updated_by)
     values ($1, 'info', $2, $3, 'all', 'everyone', date_trunc('hour', now()) + interval '7 days', 'draft', $4, $4)
     on conflict (uuid) do nothing`,
    [DEMO_ANNOUNCEMENTS.draft, JSON.stringify(DRAFT.title), JSON.stringify(DRAFT.body), admin],
  );
  // Its notification for every accepted member of an account, once (a later start finds them there).
  await tx.query(
    `insert into notifications (account_uuid, user_uuid, type, params, created_at)
     select null, m.user_uuid, 'announcement.published',
            jsonb_build_object('announcementUuid', a.uuid::text, 'kind', a.kind, 'title', a.title,
                               'startsAt', to_char(a.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                               'endsAt', to_char(a.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
            a.starts_at
       from (select distinct user_uuid from account_members where invitation_status = 'ACCEPTED') m
       cross join announcements a
      where a.uuid = $1::uuid
        and not exists (select 1 from notifications n
                         where n.user_uuid = m.user_uuid and n.type = 'announcement.published'
                           and n.params ->> 'announcementUuid' = $2::text)`,
    [DEMO_ANNOUNCEMENTS.maintenance, DEMO_ANNOUNCEMENTS.maintenance],
  );
}

/** A demo start that does not seed (decision 253) still renews the maintenance window, as the seed's upsert does. */
export async function renewDemoAnnouncements(tx: Queryable) {
  await tx.query(
    `update announcements set starts_at = now() - interval '1 hour', ends_at = now() + interval '3 days'
      where uuid = $1`,
    [DEMO_ANNOUNCEMENTS.maintenance],
  );
}
