/**
 * Context-borne cases of the secret corpus: credentials with no format of their own, given away by
 * the words around them (URLs, command lines, env files, headers, JSON).
 */

import type { SecretCase } from "./secret-cases.ts";
import { ALNUM, B64, HEX, LOWER, type Shapes } from "./secret-shapes.ts";

/** Context-borne credentials: the value has no format, the words around it say what it is. */
export function contextCases(s: Shapes): SecretCase[] {
  const cases: SecretCase[] = [];
  const add = (kind: string, text: string, ...secrets: string[]) => cases.push({ kind, text, secrets });
  const pw = () => s.password(s.range(10, 20));
  const host = () => s.pick(["db.internal", "10.0.3.12", "cache.prod.svc", "mq.example.net"]);

  for (let i = 0; i < 4; i++) {
    const p = pw();
    const u = s.chars(LOWER, 6);
    const scheme = s.pick(["postgres", "postgresql", "mysql", "mongodb+srv", "amqp", "https", "ftp", "smtp"]);
    add("url-credentials", `connecting to ${scheme}://${u}:${p}@${host()}:${s.range(1000, 9999)}/app`, p);
  }
  const redisPw = s.mixed(ALNUM, 24);
  add("url-credentials", `REDIS_URL=redis://:${redisPw}@cache.prod.svc:6379/0`, redisPw);
  const gitTok = s.githubToken("ghp_");
  add("url-credentials", `git clone https://x-access-token:${gitTok}@github.com/org/repo.git`, gitTok);
  const oauthTok = s.chars(HEX, 40);
  add("url-credentials", `"url": "https://${oauthTok}:x-oauth-basic@github.com/org/private.git"`, oauthTok);
  const dsnKey = s.chars(HEX, 32);
  add("sentry-dsn", `SENTRY_DSN=https://${dsnKey}@o${s.chars("0123456789", 6)}.ingest.us.sentry.io/${s.chars("0123456789", 7)}`, dsnKey);
  const dsnKey2 = s.chars(HEX, 32);
  add("sentry-dsn", `Sentry.init({ dsn: "https://${dsnKey2}@o44.ingest.sentry.io/5" });`, dsnKey2);

  for (let i = 0; i < 3; i++) {
    const p = pw();
    const u = s.chars(LOWER, 5);
    add(
      "curl-user",
      s.pick([
        `curl -u ${u}:${p} https://api.example.com/v2/items`,
        `curl --user "${u}:${p}" -X POST https://ci.example.com/job`,
        `curl -fsSL -u '${u}:${p}' https://nexus.example.com/repo`,
      ]),
      p,
    );
  }
  for (let i = 0; i < 3; i++) {
    const p = s.mixed(`${ALNUM}!@%-_.`, 14);
    add(
      "sshpass",
      s.pick([
        `sshpass -p '${p}' ssh deploy@10.0.0.5 uptime`,
        `sshpass -p ${p} scp build.tgz ci@host:/tmp`,
        `sshpass -p${p} rsync -a dist/ host:/srv`,
      ]),
      p,
    );
  }
  for (let i = 0; i < 2; i++) {
    const p = s.mixed(ALNUM, 16);
    add(
      "netrc",
      s.pick([`machine api.heroku.com login me@example.com password ${p}`, `machine github.com\n  login bot\n  password ${p}`]),
      p,
    );
  }
  const mp = s.mixed(ALNUM, 14);
  add("mysql-password", `mysql -h db -u root -p${mp} app < dump.sql`, mp);
  const dp = s.mixed(ALNUM, 20);
  add("docker-login", `docker login -u ci-bot -p ${dp} registry.example.com`, dp);
  const rp = s.mixed(ALNUM, 18);
  add("redis-cli", `redis-cli -h cache -a ${rp} INFO keyspace`, rp);

  const npmAuth = Buffer.from(`${s.chars(LOWER, 6)}:${pw()}`).toString("base64");
  add("npm-auth", `_auth=${npmAuth}`, npmAuth);
  const npmTok = s.npmToken();
  add("npm-auth", `//registry.npmjs.org/:_authToken=${npmTok}`, npmTok);
  const npmTok2 = s.mixed(ALNUM, 36);
  add("npm-auth", `//npm.pkg.github.com/:_authToken=${npmTok2}`, npmTok2);
  const npmPw = Buffer.from(pw()).toString("base64");
  add("npm-auth", `//nexus.example.com/repository/npm/:_password=${npmPw}`, npmPw);
  const dockerAuth = Buffer.from(`ci:${s.mixed(ALNUM, 24)}`).toString("base64");
  add("docker-config-auth", `{"auths":{"ghcr.io":{"auth":"${dockerAuth}"}}}`, dockerAuth);
  const dockerAuth2 = Buffer.from(`deploy:${pw()}`).toString("base64");
  add("docker-config-auth", `\t\t"registry.example.com": {\n\t\t\t"auth": "${dockerAuth2}"\n\t\t}`, dockerAuth2);

  const special = ["$", "(", "{", ",", ";"];
  for (const ch of special) {
    const p = `${s.mixed(ALNUM, 5)}${ch}${s.mixed(ALNUM, 6)}`;
    add("password-assignment", s.pick([`password=${p}`, `DB_PASSWORD=${p}`, `"password": "${p}"`, `password: ${p}`]), p);
  }
  const spaced = `${s.chars(LOWER, 6)} ${s.mixed(ALNUM, 5)} ${s.chars(LOWER, 4)}!`;
  add("password-assignment", `PASSWORD="${spaced}"`, spaced);
  const spaced2 = `${s.mixed(ALNUM, 6)} ${s.chars(LOWER, 5)}`;
  add("password-assignment", `  password: '${spaced2}'`, spaced2);
  for (const name of [
    "DB_PASS",
    "SMTP_PASS",
    "MYSQL_ROOT_PASSWORD",
    "PGPASSWORD",
    "POSTGRES_PASSWORD",
    "spring.datasource.password",
    "KEYSTORE_PASSWORD",
  ]) {
    const p = pw();
    add("password-assignment", s.pick([`${name}=${p}`, `export ${name}='${p}'`, `      - ${name}=${p}`]), p);
  }
  for (const flag of ["--password", "--db-password", "--client-secret", "--token", "--api-key"]) {
    const p = flag === "--password" || flag === "--db-password" ? pw() : s.mixed(ALNUM, 32);
    add("cli-flag", s.pick([`app migrate ${flag} ${p} --host db`, `app migrate ${flag}=${p} --host db`, `./bin/sync ${flag} "${p}"`]), p);
  }
  const xmlPw = pw().replace(/[<&]/g, "x");
  add("password-assignment", `    <password>${xmlPw}</password>`, xmlPw);

  const accountKey = s.base64(64);
  add(
    "azure-storage-key",
    `DefaultEndpointsProtocol=https;AccountName=prodlogs;AccountKey=${accountKey};EndpointSuffix=core.windows.net`,
    accountKey,
  );
  const sasSig = encodeURIComponent(s.base64(32));
  add(
    "azure-sas",
    `https://prodlogs.blob.core.windows.net/logs/app.log?sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2025-01-01T00:00:00Z&sig=${sasSig}`,
    sasSig,
  );
  const sbKey = s.base64(32);
  add(
    "azure-storage-key",
    `Endpoint=sb://bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${sbKey}`,
    sbKey,
  );
  const amzSig = s.chars(HEX, 64);
  add(
    "aws-presigned-url",
    `https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20240314T090000Z&X-Amz-Expires=3600&X-Amz-Signature=${amzSig}`,
    amzSig,
  );
  const awsSecret = s.mixed(B64, 40);
  add(
    "aws-secret-key",
    s.pick([`aws_secret_access_key = ${awsSecret}`, `AWS_SECRET_ACCESS_KEY=${awsSecret}`, `"SecretAccessKey": "${awsSecret}",`]),
    awsSecret,
  );
  const awsSecret2 = s.mixed(B64, 40);
  add("aws-secret-key", `export AWS_SECRET_ACCESS_KEY="${awsSecret2}"`, awsSecret2);

  const envKeys: [string, () => string][] = [
    ["APP_KEY", () => `base64:${s.base64(32)}`],
    ["ENCRYPTION_KEY", () => s.chars(HEX, 64)],
    ["SIGNING_KEY", () => s.base64(48)],
    ["SECRET_KEY_BASE", () => s.chars(HEX, 128)],
    ["JWT_SECRET", () => s.mixed(ALNUM, 48)],
    ["SESSION_SECRET", () => s.mixed(ALNUM, 32)],
    ["MASTER_KEY", () => s.chars(HEX, 32)],
    ["WEBHOOK_SECRET", () => s.mixed(ALNUM, 40)],
    ["DJANGO_SECRET_KEY", () => s.password(50).replace(/[;,{(]/g, "x")],
    ["NEXTAUTH_SECRET", () => s.base64(32)],
  ];
  for (const [name, make] of envKeys) {
    const v = make();
    add("env-secret", s.pick([`${name}=${v}`, `${name}="${v}"`, `  ${name}: ${v}`]), v.replace(/^base64:/, ""));
  }

  const xkey = s.mixed(ALNUM, 40);
  add("api-key-header", `curl https://api.example.com/v1/search -H "x-api-key: ${xkey}"`, xkey);
  const xkey2 = s.chars(HEX, 32);
  add("api-key-header", `Ocp-Apim-Subscription-Key: ${xkey2}`, xkey2);
  const xtok = s.mixed(ALNUM, 32);
  add("api-key-header", `X-Auth-Token: ${xtok}`, xtok);
  const ptok = `glpat-${s.mixed(ALNUM, 20)}`;
  add("api-key-header", `curl --header "PRIVATE-TOKEN: ${ptok}" https://gitlab.example.com/api/v4/projects`, ptok);
  const btok = s.mixed(`${ALNUM}._-`, 40);
  add("bearer-token", `authorization: bearer ${btok}`, btok);
  const btok2 = s.mixed(ALNUM, 36);
  add("bearer-token", `> GET /v1/models HTTP/1.1\n> Authorization: Bearer ${btok2}\n> Accept: */*`, btok2);
  const btok3 = s.mixed(ALNUM, 44);
  add("bearer-token", `retrying request with bearer ${btok3}`, btok3);
  const ghtok = s.githubToken("ghp_");
  add("authorization-header", `Authorization: token ${ghtok}`, ghtok);
  const basic = Buffer.from(`admin:${pw()}`).toString("base64");
  add("basic-auth", `Authorization: Basic ${basic}`, basic);
  const basic2 = Buffer.from(`svc:${pw()}`).toString("base64");
  add("basic-auth", `proxy sent "basic ${basic2}" upstream`, basic2);

  for (const key of [
    "client_secret",
    "clientSecret",
    "access_token",
    "refresh_token",
    "secret",
    "private_token",
    "apiKey",
    "credentials",
  ]) {
    const v = s.mixed(`${ALNUM}_-`, s.range(32, 64));
    add("json-secret", s.pick([`{"${key}": "${v}", "expires_in": 3600}`, `  "${key}": "${v}",`]), v);
  }
  const hiEntropy = s.mixed(B64, 44);
  add("json-secret", `{"type":"service","credential":{"key":"${hiEntropy}"}}`, hiEntropy);
  return cases;
}
