export { createMailer, type Mailer, type MailMessage } from './mailer.ts';
export { registerDevMail } from './dev-mail.ts';
