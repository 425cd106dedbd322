-- What a person sees of each of their sign-in sessions (the embedded provider's SSO sessions, model 'Session' in
-- idp_payloads, found by their uid): the browser and client address it was last used from, when it started and when
-- it was last active. Written when the session signs a client in and when its tokens are refreshed; a row whose
-- session is gone is removed by the provider's clean-up job.
create table idp_session_details (
  session_uid text primary key,
  identity_id uuid not null references idp_identities (id) on delete cascade,
  user_agent text,
  client_address text,
  started_at timestamptz not null default now(),
  last_active_at timestamptz not null default now()
);
create index idp_session_details_identity_idx on idp_session_details (identity_id);
