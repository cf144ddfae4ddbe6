// Who is signed in: a bearer token pasted by the user or minted on the local stack, kept in this
// browser's localStorage. The page reads the token's subject and expiry only to show them; the API
// verifies it on every request.

const KEY = "pm.explorer.token";

export type Claims = { sub: string; exp: number; roles: string[] };

/** The claims of a JWT, unverified; undefined for anything that is not a readable JWT. */
export function claimsOf(token: string): Claims | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    if (typeof json.sub !== "string" || typeof json.exp !== "number") return undefined;
    return { sub: json.sub, exp: json.exp, roles: Array.isArray(json.roles) ? json.roles : [] };
  } catch {
    return undefined;
  }
}

const listeners = new Set<() => void>();

export const session = {
  token(): string | undefined {
    const token = localStorage.getItem(KEY) ?? undefined;
    const claims = token ? claimsOf(token) : undefined;
    return claims && claims.exp * 1000 > Date.now() ? token : undefined;
  },
  claims(): Claims | undefined {
    const token = this.token();
    return token ? claimsOf(token) : undefined;
  },
  signIn(token: string) {
    localStorage.setItem(KEY, token);
    for (const listener of listeners) listener();
  },
  signOut() {
    localStorage.removeItem(KEY);
    for (const listener of listeners) listener();
  },
  onChange(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The server offers local sign-in only while it verifies tokens with the built-in local secret. */
  localSignIn: () => document.querySelector('meta[name="local-sign-in"]')?.getAttribute("content") === "on",
};
