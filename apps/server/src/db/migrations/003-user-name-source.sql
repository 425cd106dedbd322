-- Who owns the user's name (decision 060): the portal keeps the name the user chose; a token replaces it only when
-- the provider's name changed since it was last seen, and only from a token not older than that sighting.

-- The name the identity provider gave last; null until a token carried one.
alter table users add column provider_name text;
-- Issue time (iat) of the token that carried `provider_name`; null when unknown.
alter table users add column provider_name_at timestamptz;

-- Until now the name followed every token, so the stored name is the provider's last one.
update users set provider_name = name;
