-- The customer's consent to support staff opening the account ends when its ticket is solved or closed, and only
-- the customer gives it again (decision 195). Until now a solved ticket kept the flag, so setting it open again
-- brought the access back. Clear it on every ticket that is solved or closed (each end in the account's log, by
-- nobody, with the ticket's status as the reason), and let the table refuse a solved or closed ticket whose
-- consent is still on, so that no way of solving or closing can leave it behind.
insert into audit_log (account_uuid, actor_uuid, action, target, before, after)
select account_uuid, null, 'support.consent.end', 'ticket:' || uuid::text,
       '{"staffAccessConsent": true}'::jsonb,
       jsonb_build_object('staffAccessConsent', false, 'reason', status)
  from support_tickets
 where staff_access_consent and status in ('SOLVED', 'CLOSED');

update support_tickets set staff_access_consent = false
 where staff_access_consent and status in ('SOLVED', 'CLOSED');

alter table support_tickets add constraint support_tickets_consent_while_open
  check (not staff_access_consent or status in ('OPEN', 'WAITING_FOR_CUSTOMER'));
