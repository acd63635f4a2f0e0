/**
 * A corpus for the secret firewall: credentials in the formats their issuers document (bodies from
 * a seeded generator, so the corpus is stable) and look-alikes that ordinary memories contain.
 * Used by secret-scan.test.ts, which prints recall and false positives.
 */

let seed = 0x5eed
function rand(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const HEX = '0123456789abcdef'
const UPPER32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
const B64URL = ALNUM + '-_'
const pick = (alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('')

/** [expected kind, line as it might appear in a memory] */
export const REAL_SECRETS: [string, string][] = [
  ['aws-access-key-id', `AWS_ACCESS_KEY_ID=AKIA${pick(UPPER32, 16)}`],
  ['aws-access-key-id', `temporary creds ASIA${pick(UPPER32, 16)} expire hourly`],
  ['aws-access-key-id', `legacy key A3TX${pick(UPPER32, 16)}`],
  ['aws-access-key-id', `ABIA${pick(UPPER32, 16)}`],
  ['aws-access-key-id', `ACCA${pick(UPPER32, 16)}`],
  ['aws-secret-access-key', `aws_secret_access_key = ${pick(ALNUM + '/+', 40)}`],
  ['gcp-api-key', `maps key AIza${pick(B64URL, 35)}`],
  ['azure-ad-client-secret', `client secret: ${pick(ALNUM, 3)}8Q~${pick(ALNUM + '_~.', 34)}`],
  ['digitalocean-pat', `DO_TOKEN=dop_v1_${pick(HEX, 64)}`],
  ['digitalocean-access-token', `doo_v1_${pick(HEX, 64)}`],
  ['anthropic-api-key', `ANTHROPIC_API_KEY=sk-ant-api03-${pick(B64URL, 93)}AA`],
  ['anthropic-admin-api-key', `admin key sk-ant-admin01-${pick(B64URL, 93)}AA`],
  ['openai-api-key', `OPENAI_API_KEY=sk-proj-${pick(B64URL, 74)}T3BlbkFJ${pick(B64URL, 74)}`],
  ['openai-api-key', `sk-${pick(ALNUM, 20)}T3BlbkFJ${pick(ALNUM, 20)}`],
  [
    'huggingface-access-token',
    `HF_TOKEN=hf_${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 34)}`,
  ],
  ['github-pat', `git remote uses ghp_${pick(ALNUM, 36)}`],
  ['github-fine-grained-pat', `github_pat_${pick(ALNUM, 22)}_${pick(ALNUM, 59)}`],
  ['github-app-token', `ghs_${pick(ALNUM, 36)}`],
  ['github-app-token', `ghu_${pick(ALNUM, 36)}`],
  ['github-oauth', `gho_${pick(ALNUM, 36)}`],
  ['github-refresh-token', `ghr_${pick(ALNUM, 36)}`],
  ['gitlab-pat', `CI token glpat-${pick(B64URL, 20)}`],
  ['gitlab-deploy-token', `deploy with gldt-${pick(B64URL, 20)}`],
  [
    'slack-bot-token',
    `SLACK_BOT_TOKEN=xoxb-${pick('0123456789', 12)}-${pick('0123456789', 13)}-${pick(ALNUM, 24)}`,
  ],
  [
    'slack-user-token',
    `xoxp-${pick('0123456789', 12)}-${pick('0123456789', 12)}-${pick('0123456789', 13)}-${pick(HEX, 32)}`,
  ],
  [
    'slack-app-token',
    `xapp-1-A${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 10)}-${pick('0123456789', 13)}-${pick(HEX, 64)}`,
  ],
  ['twilio-api-key', `TWILIO_API_KEY=SK${pick(HEX, 32)}`],
  ['sendgrid-api-token', `SENDGRID_API_KEY=SG.${pick(B64URL, 22)}.${pick(B64URL, 43)}`],
  ['npm-access-token', `//registry.npmjs.org/:_authToken=npm_${pick(ALNUM, 36)}`],
  ['pypi-upload-token', `password = pypi-AgEIcHlwaS5vcmc${pick(B64URL, 70)}`],
  ['databricks-api-token', `DATABRICKS_TOKEN=dapi${pick(HEX, 32)}`],
  [
    'hashicorp-tf-api-token',
    `token = "${pick('abcdefghijklmnopqrstuvwxyz0123456789', 14)}.atlasv1.${pick('abcdefghijklmnopqrstuvwxyz0123456789', 67)}"`,
  ],
  ['pulumi-api-token', `PULUMI_ACCESS_TOKEN=pul-${pick(HEX, 40)}`],
  ['postman-api-token', `PMAK-${pick(HEX, 24)}-${pick(HEX, 34)}`],
  ['grafana-api-key', `Authorization: Bearer eyJrIjoi${pick(ALNUM, 72)}`],
  ['grafana-cloud-api-token', `glc_${pick(ALNUM, 32)}${pick(ALNUM, 40)}==`],
  ['grafana-service-account-token', `glsa_${pick(ALNUM, 32)}_${pick(HEX, 8)}`],
  ['sentry-user-token', `SENTRY_AUTH_TOKEN=sntryu_${pick(HEX, 64)}`],
  [
    'sentry-org-token',
    `sntrys_eyJpYXQiOjE3MDAwMDAwMDAuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8ifQ_${pick(ALNUM, 43)}`,
  ],
  ['stripe-access-token', `STRIPE_SECRET_KEY=sk_live_${pick(ALNUM, 24)}`],
  ['stripe-access-token', `test key sk_test_${pick(ALNUM, 24)}`],
  ['stripe-access-token', `restricted rk_live_${pick(ALNUM, 24)}`],
  ['shopify-access-token', `shpat_${pick(HEX, 32)}`],
  ['shopify-shared-secret', `shpss_${pick(HEX, 32)}`],
  ['private-key', '-----BEGIN RSA PRIVATE KEY-----'],
  ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
  [
    'jwt',
    `session=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiaWF0IjoxNTE2MjM5MDIyfQ.${pick(B64URL, 43)}`,
  ],
  ['basic-auth-url', `clone from https://deploy:${pick(ALNUM, 16)}@git.example.com/acme/api.git`],
  ['database-url', `DATABASE_URL=postgres://app:${pick(ALNUM, 18)}@db.internal:5432/app`],
  ['linear-api-key', `LINEAR_API_KEY=lin_api_${pick(ALNUM, 40)}`],
]

/** Lines an ordinary memory holds that share a prefix, shape or keyword with a credential. */
export const LOOK_ALIKES: string[] = [
  'oauth_redirect_path=/api/v2/oauth/callback/handler1',
  'token_ttl = 900',
  'Set token_ttl = 900 in config. The password policy needs 12 characters.',
  'The auth token refresh runs every 15 minutes',
  'AWS access keys start with AKIA; never paste one here.',
  'Use the AKIA... key from 1Password, not from this file.',
  'aws_secret_access_key is read from the environment (AWS_SECRET_ACCESS_KEY)',
  'git sha 3f786850e387550fdab836ed7e6dc881de23001b fixed the race',
  'request id 0b5e7e3c-1c2d-4e5f-8a9b-0c1d2e3f4a5b in the logs',
  'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'Tokens look like ghp_xxxx; rotate them in GitHub settings.',
  'GitLab tokens start with glpat- and expire after 90 days.',
  'Slack bot tokens (xoxb-...) live in the vault.',
  'Set SLACK_BOT_TOKEN=xoxb-your-token-here in .env.local',
  'SendGrid keys begin with SG. and have three parts.',
  'npm_config_cache=/tmp/npm-cache speeds up CI',
  'hf_hub_download caches models in ~/.cache/huggingface',
  'DigitalOcean tokens are dop_v1_<64 hex>; keep them out of memory.',
  'password: ${DB_PASSWORD}',
  'DATABASE_URL=postgres://localhost:5432/app_test',
  'https://example.com/callback?token=${TOKEN}',
  'eyJ is how a base64 JSON object starts',
  'client id 6731de76-14a6-49ae-97bc-6eba6914391e (not a secret)',
  'pypi-publish runs on tags only',
  'dapi is the Databricks CLI alias we use',
  'pul-request reviews: two approvals',
  'Postman keys start with PMAK- and we keep them in the team vault',
  'Sentry tokens (sntryu_, sntrys_) go in CI secrets',
  'Stripe keys: sk_live_ for production, sk_test_ for staging',
  'Shopify admin tokens begin with shpat_',
  'Twilio SK keys are per environment',
  'Grafana dashboard uid checkout-latency',
  'glc_ prefixed tokens are Grafana Cloud policies',
  'The API key lives in the ANTHROPIC_API_KEY environment variable.',
  'sk-learn is not a typo: scikit-learn',
  'BEGIN PUBLIC KEY blocks are fine to share',
  '-----BEGIN CERTIFICATE-----',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGbQ7Zq3mF0c5f2bq6k7s9Jd8x2Yw3N1p4L5r6T7u8V9 dev@laptop',
  'secret santa list is in the shared drive',
  'api_key_header = "X-Api-Key"',
  'max_token_length=4096',
  'AIza prefix means a Google API key',
  'image data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk',
  'The deploy password rotates monthly; ask #ops for it.',
  'terraform cloud org acme.atlasv1 docs',
  'AKIAIOSFODNN7EXAMPLE is the AWS documentation example key',
]
