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
  const awsSecret = pick(`${ALNUM}/+`, 40);
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
