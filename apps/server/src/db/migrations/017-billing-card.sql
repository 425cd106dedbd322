-- The card an account pays with, as the card provider keeps it: the provider's customer of the account (created
-- once, on the first card setup), the saved payment method and what the page shows of it (brand, last 4 digits).
-- A card can be saved before the billing address is, so the address columns may be empty until then (an empty
-- `updated_at` still means the billing details were never saved).
alter table billing_details add column card_customer_id text;
alter table billing_details add column card_payment_method_id text;
alter table billing_details add column card_brand text;
alter table billing_details add column card_last4 text;
alter table billing_details alter column street drop not null;
alter table billing_details alter column postcode drop not null;
alter table billing_details alter column city drop not null;
alter table billing_details alter column country drop not null;
alter table billing_details alter column recipients drop not null;
alter table billing_details alter column updated_at drop not null;
