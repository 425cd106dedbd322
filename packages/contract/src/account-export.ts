import { Entity, ErrorBody, UuidParams } from './common.ts';
import { FileBytes } from './company.ts';
import { DataExport, DataExportBody, DataExportStatus } from './my-data.ts';
import { defineRoute } from './route.ts';

// A module of its own, imported by the web as '@portal/contract/account-export' (only the owner's card, a lazy
// chunk, uses it): routes reached through the package's index land in the contract chunk every page loads.

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
};

/**
 * The account's data (settings/company-profile, card "Kontodaten exportieren", OWNER only): everything the portal
 * keeps about the account as one ZIP (company profile and logo, members and invitations, subscription, invoices as
 * their PDFs, payments, the log as CSV, tickets with attachments, integrations' settings), prepared by the same job
 * and under the same rules as a person's export: the password again, once per day per account, 7 days, then a
 * mail and an inbox entry (decision 240). Any owner of the account may download it.
 */
const OWNER_ONLY = { exactly: 'OWNER', denied: 'Only the owner can export the account’s data' } as const;

export const accountExportRoutes = {
  getAccountExport: defineRoute({
    method: 'GET',
    path: '/company/v1/data-export',
    summary: "The account's latest data export and when the next may be asked for (owner only)",
    tags: ['company'],
    accountScoped: true,
    accountRole: OWNER_ONLY,
    response: { 200: Entity(DataExportStatus), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
  requestAccountExport: defineRoute({
    method: 'POST',
    path: '/company/v1/data-export',
    summary:
      "Ask for an export of the account's data (a ZIP prepared by a job; the current password asked again)",
    tags: ['company'],
    accountScoped: true,
    accountRole: OWNER_ONLY,
    body: DataExportBody,
    response: { 202: Entity(DataExport), ...errors },
  }),
  downloadAccountExport: defineRoute({
    method: 'GET',
    path: '/company/v1/data-export/{id}/file',
    summary:
      "Download a prepared export of the account's data as a ZIP, streamed (owner only, until it expires)",
    tags: ['company'],
    accountScoped: true,
    accountRole: OWNER_ONLY,
    params: UuidParams,
    response: { 200: FileBytes, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
  }),
};
