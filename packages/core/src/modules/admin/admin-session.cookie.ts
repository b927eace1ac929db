/** Name of the dashboard's session cookie. The `__Host-` prefix is used over https (no Domain, Path=/, Secure). */
const COOKIE_NAME = 'careers_admin_session';
const SECURE_COOKIE_NAME = `__Host-${COOKIE_NAME}`;

function cookieName(secure: boolean): string {
  return secure ? SECURE_COOKIE_NAME : COOKIE_NAME;
}

function attributes(secure: boolean): string {
  // httpOnly keeps the token from scripts; SameSite=Strict keeps it off cross-site requests.
  return `Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` value that stores the session token until it expires. */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${cookieName(secure)}=${token}; ${attributes(secure)}; Max-Age=${maxAge}`;
}

/** `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${cookieName(secure)}=; ${attributes(secure)}; Max-Age=0`;
}

/**
 * The session token of a `Cookie` header, if any: over https only the `__Host-` cookie, which a browser accepts only
 * from this very host over https (a sibling subdomain or a plain-http answer cannot plant one); over http only the
 * plain one.
 */
export function sessionTokenFromCookies(header: string | undefined, secure: boolean): string | undefined {
  if (!header) return undefined;
  const wanted = cookieName(secure);
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === wanted) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** Secure cookies whenever the client reached us over https (directly or through a trusted proxy). */
export function isSecureRequest(url: URL): boolean {
  return url.protocol === 'https:';
}
