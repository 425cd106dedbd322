/** The built-in app version, "2.6.0+<build>", injected at build time (vite.config.ts). */
declare const __APP_VERSION__: string;
