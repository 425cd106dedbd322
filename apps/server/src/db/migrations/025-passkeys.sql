-- Challenges of WebAuthn ceremonies (passkeys). Each is random, single-use (taken with a delete) and short-lived.
-- A registration challenge belongs to the identity that asked for it; a sign-in challenge to the pending
-- interaction (the login or the second-factor page) and, on the second-factor page, to the identity whose
-- password was right. Kept in the database, so any instance can check the answer.
create table idp_webauthn_challenges (
  challenge text primary key,
  purpose text not null check (purpose in ('register', 'authenticate')),
  identity_id uuid references idp_identities (id) on delete cascade,
  interaction_uid text,
  expires_at timestamptz not null
);
create index idp_webauthn_challenges_expiry_idx on idp_webauthn_challenges (expires_at);
