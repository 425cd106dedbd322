import type messages from './locales/de/messages.json';
import type validation from './locales/de/validation.json';

// German is the source language: every key `t()` accepts must exist in the German files, so a typo or a
// removed key fails the typecheck. The other three locales are held to the same keys by i18n/locales.test.ts.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'messages';
    resources: { messages: typeof messages; validation: typeof validation };
  }
}
