// oidc-provider's own key-set loader (not part of its typed API): what its constructor runs on `jwks`.
declare module 'oidc-provider/lib/helpers/initialize_keystore.js' {
  export default function initializeKeystore(this: object, jwks: { keys: object[] }): void;
}
