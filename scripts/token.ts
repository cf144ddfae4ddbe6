// `npm run token -- <userId> [--verified] [--admin] [--agent] [--ttl <seconds>]`: a local JWT
// signed with JWT_SECRET (HS256), for trying the API by hand; without JWT_SECRET, with the local
// secret that `npm start` gives the API when JWT_SECRET is unset.
import { SignJWT } from "jose";
import { LOCAL_JWT_AUDIENCE, LOCAL_JWT_ISSUER, LOCAL_JWT_SECRET } from "./stack/keys";

const args = process.argv.slice(2);
const userId = args.find((arg) => !arg.startsWith("--") && !/^\d+$/.test(arg));
const secret = process.env.JWT_SECRET || LOCAL_JWT_SECRET;
if (!userId) {
  console.error("usage: [JWT_SECRET=...] npm run token -- <userId> [--verified] [--admin] [--agent] [--ttl <seconds>]");
  process.exit(2);
}
const ttlIndex = args.indexOf("--ttl");
const ttl = ttlIndex >= 0 ? Number(args[ttlIndex + 1]) : 24 * 3600;
const roles = ["verified", "admin", "agent"].filter((role) => args.includes(`--${role}`));

const token = await new SignJWT({ roles, email_verified: args.includes("--verified") })
  .setProtectedHeader({ alg: "HS256" })
  .setSubject(userId)
  .setIssuedAt()
  .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
  .setIssuer(process.env.JWT_ISSUER || LOCAL_JWT_ISSUER)
  .setAudience(process.env.JWT_AUDIENCE || LOCAL_JWT_AUDIENCE)
  .sign(new TextEncoder().encode(secret));
console.log(token);
