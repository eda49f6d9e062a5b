/** Private-key cases of the secret corpus (key material is random base64 with the right leading bytes). */
import type { SecretCase } from "./secret-cases.ts";
import { B64, HEX, type Shapes } from "./secret-shapes.ts";

/** Private keys: PEM (whole, encrypted, cut off, escaped in JSON), OpenSSH, PGP, PuTTY, base64 in a Kubernetes secret. */
export function keyCases(s: Shapes): SecretCase[] {
  const cases: SecretCase[] = [];
  const rsa = s.pemBody(1190, "MIIEowIBAAKCAQEA");
  cases.push({
    kind: "private-key",
    text: `-----BEGIN RSA PRIVATE KEY-----\n${rsa}\n-----END RSA PRIVATE KEY-----`,
    secrets: rsa.split("\n"),
  });
  const pkcs8 = s.pemBody(1216, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC");
  cases.push({ kind: "private-key", text: `-----BEGIN PRIVATE KEY-----\n${pkcs8}\n-----END PRIVATE KEY-----`, secrets: pkcs8.split("\n") });
  const ssh = s.pemBody(300, "b3BlbnNzaC1rZXktdjEAAAAA");
  cases.push({
    kind: "private-key",
    text: `$ cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n${ssh}\n-----END OPENSSH PRIVATE KEY-----`,
    secrets: ssh.split("\n"),
  });
  const ec = s.pemBody(121, "MHcCAQEEI");
  cases.push({ kind: "private-key", text: `-----BEGIN EC PRIVATE KEY-----\n${ec}\n-----END EC PRIVATE KEY-----`, secrets: ec.split("\n") });
  const enc = s.pemBody(1200, "MIIE");
  cases.push({
    kind: "private-key",
    text: `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${s.chars(HEX, 32).toUpperCase()}\n\n${enc}\n-----END RSA PRIVATE KEY-----`,
    secrets: enc.split("\n"),
  });
  const truncated = s.pemBody(900, "MIIEpAIBAAKCAQEA");
  cases.push({
    kind: "private-key-truncated",
    text: `-----BEGIN RSA PRIVATE KEY-----\n${truncated}\n[output truncated]`,
    secrets: truncated.split("\n"),
  });
  const truncated2 = s.pemBody(500, "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC");
  cases.push({
    kind: "private-key-truncated",
    text: `-----BEGIN PRIVATE KEY-----\n${truncated2.slice(0, 400)}`,
    secrets: truncated2.slice(0, 400).split("\n"),
  });
  const gcp = s.pemBody(1216, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC");
  cases.push({
    kind: "private-key-json",
    text: `  "private_key_id": "${s.chars(HEX, 40)}",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n${gcp.replace(/\n/g, "\\n")}\\n-----END PRIVATE KEY-----\\n",`,
    secrets: gcp.split("\n"),
  });
  const pgp = s.pemBody(1400, "lQOYBG");
  cases.push({
    kind: "pgp-private-key",
    text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${pgp}\n=${s.chars(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----`,
    secrets: pgp.split("\n"),
  });
  const putPriv = s.base64(48);
  const putMac = s.chars(HEX, 64);
  cases.push({
    kind: "putty-key",
    text: [
      "PuTTY-User-Key-File-3: ssh-ed25519",
      "Encryption: none",
      "Comment: deploy@build",
      "Public-Lines: 2",
      s.base64(48),
      s.base64(3),
      "Private-Lines: 1",
      putPriv,
      `Private-MAC: ${putMac}`,
    ].join("\n"),
    secrets: [putPriv, putMac],
  });
  const k8s = Buffer.from(
    `-----BEGIN PRIVATE KEY-----\n${s.pemBody(600, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC")}\n-----END PRIVATE KEY-----\n`,
  ).toString("base64");
  // The first characters encode "-----BEGIN PRIVATE KEY-----" (shared by every such key): the rest is the key.
  cases.push({
    kind: "k8s-encoded-key",
    text: `data:\n  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n  tls.key: ${k8s}`,
    secrets: [k8s.slice(40)],
  });
  return cases;
}
