export { createMailer } from './mailer.ts';
export { registerDevMail } from './dev-mail.ts';
