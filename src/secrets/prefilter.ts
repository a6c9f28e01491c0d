/**
 * A cheap test of whether a text may hold a secret secretlint's recommended preset would find:
 * the literal prefixes and markers its rules key on, in two regular expressions. Ingest runs
 * secretlint (scan.ts, about a millisecond a call before any text is read) only on texts that
 * pass, so counting secrets costs a small part of ingest rather than most of it.
 *
 * It must never miss what the preset finds: it is looser than each rule (no lengths, no word
 * boundaries), and `prefilter.test.ts` checks it over the corpus and a planted secret of every rule.
 * Read from @secretlint/secretlint-rule-preset-recommend 12 (its bundled module/index.js); when
 * the preset gains a rule, add its marker here (the planted-secrets test names the rule missed).
 * No imports: the hook loads this on every call.
 */

/** Markers matched as written (the rules' own patterns are case-sensitive). */
const CASED = [
  // github: classic tokens and fine-grained ones
  'gh[pousr]_',
  'github_pat_',
  // gitlab, grafana
  'glpat-',
  'glc_',
  'glsa_',
  // slack tokens
  'xox[bpaor]-',
  'xapp-',
  // npm: access tokens, .npmrc `_authToken=`, package.json `x-oauth-basic@github.com`
  'npm_',
  '_authToken=',
  'x-oauth-basic@',
  // openai (every key shape holds the base64 of "OpenAI"), anthropic, groq, huggingface, linear, notion
  'T3BlbkFJ',
  'sk-ant-api0',
  'gsk_',
  'hf_',
  'lin_api_',
  'ntn_',
  // privatekey (also what gcp looks for in a service-account key)
  '-----BEGIN',
  // sendgrid, shopify, 1password, hashicorp vault, vercel, databricks, docker, figma
  'SG\\.',
  'shp(?:pa|ca|at|ss)_',
  'ops_ey',
  'hv[sbr]\\.',
  'vc[piark]_',
  'dapi',
  'dckr_pat_',
  'figd_',
  // aws access key ids: off in the preset (enableIDScanRule), kept so turning it on stays covered
  '(?:A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)',
];

/** Markers whose rules match without regard to case. */
const UNCASED = [
  // aws secret access key assignments (`SECRET_ACCESS_KEY=…`, `secretAccessKey: …`)
  /secret_?access_?key/i,
  // slack incoming webhooks
  /hooks\.slack\.com/i,
];

/**
 * basicauth (`https://user:password@host`) and database-connection-string (`postgres://user:
 * password@host`, mongodb, mysql): a user and a password before a host, whatever the scheme. Looser
 * than both rules (any scheme, any characters but `:`, `/`, `@` and spaces), tried only on texts
 * holding `://`: an unanchored pattern of ranges costs more than all the markers together.
 */
const CREDENTIALS_IN_URL = /:\/\/[^:/\s]{1,256}:[^@/\s]{1,256}@/;

const CASED_RE = new RegExp(CASED.join('|'));

/** Whether secretlint's recommended preset could find something in `text`. */
export function mayHoldSecret(text: string): boolean {
  return (
    CASED_RE.test(text) ||
    UNCASED.some((re) => re.test(text)) ||
    (text.includes('://') && CREDENTIALS_IN_URL.test(text))
  );
}
