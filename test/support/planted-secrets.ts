/**
 * Secrets of every rule family secretlint's recommended preset covers, made up at run time from
 * random characters (no real-looking key is ever committed: each is assembled here from its
 * prefix and random pieces), for tests that plant them in a transcript and check none leaks.
 */
import { randomInt } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const B64 = `${ALNUM}+/`;

const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[randomInt(chars.length)]).join('');
const join = (...parts: string[]) => parts.join('');

export interface PlantedSecret {
  /** The rule family, as its redaction names it (`[redacted: <rule>]`). */
  rule: string;
  /** The secret itself: what must never appear in a shared file. */
  secret: string;
  /** A line of text holding it as a person would paste it. */
  text: string;
}

/** One secret per rule family, fresh each call. */
export function plantedSecrets(): PlantedSecret[] {
  // The rule wants a word boundary after the key: one ending in `/` or `+` (1 in 32) would not be
  // found at the end of a line, and a test would fail by chance.
  const awsSecret = pick(`${ALNUM}/+`, 39) + pick(ALNUM, 1);
  const pem = join(
    '-----BEGIN ',
    'RSA PRIVATE KEY-----\n',
    [0, 1, 2].map((i) => (i === 0 ? `MII${pick(B64, 61)}` : pick(B64, 64))).join('\n'),
    '\n-----END ',
    'RSA PRIVATE KEY-----',
  );
  const gcpKey = join(
    '-----BEGIN ',
    'PRIVATE KEY-----\n',
    `MII${pick(B64, 61)}`,
    '\n',
    pick(B64, 64),
    '\n-----END ',
    'PRIVATE KEY-----\n',
  );
  const github = join('gh', 'p_', pick(ALNUM, 36));
  const gitlab = join('gl', 'pat-', pick(ALNUM, 20));
  const slack = join('xo', 'xb-', pick('0123456789', 12), '-', pick('0123456789', 13), '-', pick(ALNUM, 24));
  const npm = join('np', 'm_', pick(ALNUM, 36));
  const openai = join('sk-', 'proj-', pick(ALNUM, 74), 'T3Blbk', 'FJ', pick(ALNUM, 74));
  const anthropic = join('sk-', 'ant-', 'api03-', pick(ALNUM, 93), 'AA');
  const password = pick(ALNUM, 16);
  // (PEM bodies start `MII`: the ASN.1 sequence every real key starts with, which the rule checks.)
  return [
    { rule: 'aws', secret: awsSecret, text: `export AWS_SECRET_ACCESS_KEY=${awsSecret}` },
    // A service-account key pasted as JSON: its private key is what gives it away among other text.
    {
      rule: 'privatekey',
      secret: gcpKey.split('\n')[2]!,
      text: JSON.stringify({
        type: 'service_account',
        private_key_id: pick('0123456789abcdef', 40),
        private_key: gcpKey,
      }),
    },
    {
      rule: 'github',
      secret: github,
      text: `git remote set-url origin https://x:${github}@github.invalid/r`,
    },
    { rule: 'gitlab', secret: gitlab, text: `GITLAB_TOKEN=${gitlab}` },
    { rule: 'slack', secret: slack, text: `slack bot token: ${slack}` },
    { rule: 'npm', secret: npm, text: `//registry.npmjs.org/:_authToken=${npm}` },
    { rule: 'openai', secret: openai, text: `OPENAI_API_KEY=${openai}` },
    { rule: 'anthropic', secret: anthropic, text: `ANTHROPIC_API_KEY=${anthropic}` },
    { rule: 'privatekey', secret: pem.split('\n')[2]!, text: pem },
    {
      rule: 'basicauth',
      secret: password,
      text: `curl https://deploy:${password}@ci.example.com/hook`,
    },
  ];
}

const HEX = '0123456789abcdef';
const DIGITS = '0123456789';

/** A 1Password service-account token's body: base64 JSON (the rule decodes it), ending `fQ==`. */
function onePasswordBody(): string {
  let json = JSON.stringify({ email: `${pick(ALNUM, 12)}@example.invalid`, secretKey: pick(ALNUM, 40) });
  while (json.length % 3 !== 1) json = `${json.slice(0, -1)} }`; // `}` alone in the last group
  return Buffer.from(json).toString('base64');
}

/**
 * A secret of every rule of the preset that can fire in a transcript's text (gcp looks only at
 * .json and .p12 files, aws access key ids are off in the preset): plantedSecrets() and the rest,
 * and a second shape where a rule has two (fine-grained GitHub tokens, legacy OpenAI keys, Slack
 * webhooks).
 */
export function plantedSecretsOfEveryRule(): PlantedSecret[] {
  const dbPassword = pick(ALNUM, 18);
  const one = (rule: string, secret: string, text = `${rule} token: ${secret}`): PlantedSecret => ({
    rule,
    secret,
    text,
  });
  return [
    ...plantedSecrets(),
    one('github', join('github', '_pat_', pick(`${ALNUM}_`, 82))),
    one('openai', join('sk-', pick(ALNUM, 20), 'T3Blbk', 'FJ', pick(ALNUM, 20))),
    one(
      'slack',
      join(
        'https://hooks.',
        'slack.com/services/T',
        pick(ALNUM, 10),
        '/B',
        pick(ALNUM, 10),
        '/',
        pick(ALNUM, 24),
      ),
    ),
    one('npm', join('np', 'm_', pick(ALNUM, 36)), `echo ${join('np', 'm_', pick(ALNUM, 36))} > token`),
    one('groq', join('gs', 'k_', pick(ALNUM, 52))),
    one('huggingface', join('h', 'f_', pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 34))),
    one('linear', join('lin', '_api_', pick(ALNUM, 40))),
    one('notion', join('nt', 'n_', pick(DIGITS, 11), pick(ALNUM, 35))),
    one('sendgrid', join('S', 'G.', pick(ALNUM, 22), '.', pick(ALNUM, 43))),
    one('shopify', join('shp', 'at_', pick(ALNUM, 32))),
    one('grafana', join('gl', 'sa_', pick(ALNUM, 32), '_', pick(HEX, 8))),
    one('grafana', join('gl', 'c_', pick(ALNUM, 60))),
    one('1password', join('op', 's_', onePasswordBody())),
    one(
      'database-connection-string',
      dbPassword,
      join('DATABASE_URL=postgres', 'ql://app:', dbPassword, '@db.internal:5432/app'),
    ),
    one(
      'database-connection-string',
      dbPassword,
      join('mongodb', '+srv://app:', dbPassword, '@cluster0.internal/app'),
    ),
    one('hashicorp-vault', join('hv', 's.', pick(ALNUM, 95))),
    one('vercel', join('vc', 'p_', pick(ALNUM, 40))),
    one('databricks', join('da', 'pi', pick(HEX, 32))),
    one('docker', join('dckr', '_pat_', pick(ALNUM, 27))),
    one('figma', join('fi', 'gd_', pick(ALNUM, 44))),
  ];
}
