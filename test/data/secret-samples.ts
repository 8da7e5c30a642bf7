/**
 * Secret samples per provider, positive (a scanner should flag) and negative (it should not).
 *
 * Literal samples are copied from the scanners' own tests:
 *   gitleaks/gitleaks cmd/generate/config/rules/*.go (`tps` / `fps`): aws.go 0b3e675886829867703d7060b2451d0b7155db7d,
 *     slack.go 02788fb5ec7f20b962f5e01437f4baacbca3e8fa, jwt.go 08c6d3cf5924853ef6039b7a73091359bc22e00d,
 *     anthropic.go 71ab52c7c3bf6409baedfc07e67874855db54ced, gcp.go 0073de5a24273e92d30afb5dac07f3a7d600c9d2,
 *     gitlab.go 09eba9f67a17a5d01f0eb8c431e3a1eda676ffc5, huggingface.go 02788fb5ec7f20b962f5e01437f4baacbca3e8fa
 *   trufflesecurity/trufflehog pkg/detectors/aws/access_keys/accesskey_test.go 27ac210677d444c3c37f967f8e3c71396d4d53ad
 * Most gitleaks true positives are not literal: its tests generate them from a spec
 * (`secrets.NewSecret(...)`, e.g. "AKIA" + [A-Z2-7]{16}) and wrap each in assignment shapes
 * (`utils.GenerateSampleSecrets`). `generated()` below does the same from the same specs with a seeded
 * generator (spec and source file named per entry), so the set is fixed and reproducible.
 * Entries marked `issue 13` come from the issue's adversarial list (formats named there).
 */
export interface SecretSample { readonly provider: string; readonly text: string; readonly source: string }

const GL = 'gitleaks cmd/generate/config/rules';

// --- deterministic generator (mulberry32) -------------------------------------------------
let seed = 0x5eed13b;
function rand(): number {
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
export const CS = {
  alnum: UPPER + LOWER + DIGITS, upperNum: UPPER + DIGITS, aws: UPPER + '234567', hex: '0123456789abcdef', num: DIGITS,
  alpha: UPPER + LOWER, b64: UPPER + LOWER + DIGITS + '+/', ext: UPPER + LOWER + DIGITS + '_-', lowerNum: LOWER + DIGITS,
};
function pick(charset: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += charset[Math.floor(rand() * charset.length)];
  return s;
}
const b64url = (s: string): string => Buffer.from(s).toString('base64url');

/** The assignment shapes gitleaks wraps a generated secret in, plus the ways notes hold one. */
const SHAPES: readonly ((id: string, s: string) => string)[] = [
  (id, s) => `${id}Token := "${s}"`,
  (id, s) => `${id.toUpperCase()}_API_TOKEN=${s}`,
  (id, s) => `{"${id}_token": "${s}"}`,
  (id, s) => `${id}_key: ${s}`,
  (id, s) => `The ${id} credential for prod is ${s} (rotate quarterly).`,
  (id, s) => `- ${id}: \`${s}\``,
];

function generated(provider: string, id: string, source: string, make: () => string): SecretSample[] {
  return SHAPES.map((shape) => ({ provider, text: shape(id, make()), source: `${source} (generated from its spec)` }));
}
const lit = (provider: string, source: string, texts: readonly string[]): SecretSample[] => texts.map((text) => ({ provider, text, source }));

export const SECRET_POSITIVES: readonly SecretSample[] = [
  // AWS
  ...generated('aws', 'aws', `${GL}/aws.go`, () => 'AKIA' + pick(CS.aws, 16)),
  ...generated('aws', 'aws', `${GL}/aws.go`, () => 'ASIA' + pick(CS.aws, 16)),
  ...generated('aws', 'aws', `${GL}/aws.go`, () => 'ABIA' + pick(CS.aws, 16)),
  ...generated('aws', 'aws', `${GL}/aws.go`, () => 'ACCA' + pick(CS.aws, 16)),
  ...generated('aws', 'aws', `${GL}/aws.go (regex A3T[A-Z0-9])`, () => 'A3T' + pick(CS.upperNum, 1) + pick(CS.aws, 16)),
  ...lit('aws', `${GL}/aws.go`, ['key: AKIALALEMEL33243OLIB']),
  ...lit('aws', 'trufflehog pkg/detectors/aws/access_keys/accesskey_test.go', ['aws credentials{ id: ABIAS9L8MS5IPHTZPPUQ secret: .v2QPKHl7LcdVYsjaR4LgQiZ1zw3MAnMyiondXC63; }', '<id>{AKIAWGXZ9OPDOWUJMZGI}</id>']),
  ...['aws_secret_access_key = ', 'AWS_SECRET_ACCESS_KEY=', '"SecretAccessKey": "', 'aws_secret_key: '].map((p) => ({ provider: 'aws', text: `${p}${pick(CS.b64, 40)}${p.endsWith('"') ? '"' : ''}`, source: 'AWS secret key assignment (issue 13: secret-key assignments missed), 40 base64 characters' })),
  // Slack tokens
  ...generated('slack', 'slack', `${GL}/slack.go bot`, () => `xoxb-${pick(CS.num, 13)}-${pick(CS.num, 12)}-${pick(CS.alnum, 24)}`),
  ...generated('slack', 'slack', `${GL}/slack.go user`, () => `xoxp-${pick(CS.num, 12)}-${pick(CS.num, 13)}-${pick(CS.num, 13)}-${pick(CS.alnum, 32)}`),
  ...generated('slack', 'slack', `${GL}/slack.go app`, () => `xapp-1-A${pick(CS.num, 10)}-${pick(CS.num, 13)}-${pick(CS.lowerNum, 64)}`),
  ...generated('slack', 'slack', `${GL}/slack.go config access`, () => `xoxe.xoxp-1-${pick(CS.alnum, 163)}`),
  ...generated('slack', 'slack', `${GL}/slack.go config refresh (xoxe-)`, () => `xoxe-1-${pick(CS.alnum, 146)}`),
  ...generated('slack', 'slack', `${GL}/slack.go legacy bot`, () => `xoxb-${pick(CS.num, 10)}-${pick(CS.alnum, 24)}`),
  ...generated('slack', 'slack', `${GL}/slack.go legacy workspace`, () => `xoxa-${pick(CS.num, 1)}-${pick(CS.alnum, 12)}`),
  ...generated('slack', 'slack', `${GL}/slack.go legacy`, () => `xoxs-${pick(CS.num, 10)}-${pick(CS.num, 10)}-${pick(CS.num, 10)}-${pick(CS.hex, 10)}`),
  ...lit('slack', `${GL}/slack.go`, [
    '"bot_token1": "xoxb-781236542736-2364535789652-GkwFDQoHqzXDVsC6GzqYUypD"', '"bot_token2": "xoxb-263594206564-2343594206574-FGqddMF8t08v8N7Oq4i57vs1MBS"',
    '"bot_token3": "xoxb-4614724432022-5152386766518-O5WzjWGLG0wcCm2WPrjEmnys"',
    '"user_token1": "xoxp-41684372915-1320496754-45609968301-e708ba56e1517a99f6b5fb07349476ef"', '"user_token2": "xoxp-283316862324-298911817009-298923149681-44f585044dace54f5701618e97cd1c0b"',
    '"user_token3": "xoxp-11873098179-111402824422-234336993777-b96c9fb3b69f82ebb79d12f280779de1"', '"user_token4": "xoxp-254112160503-252950188691-252375361712-6cbf56aada30951a9d310a5f23d032a0"',
    '"user_token5": "xoxp-4614724432022-4621207627011-5182682871568-1ddad9823e8528ad0f4944dfa3c6fc6c"',
    '"url_private": "https:\\/\\/files.slack.com\\/files-pri\\/T04MCQMEXQ9-F04MAA1PKE3\\/image.png?t=xoxe-4726837507825-4848681849303-4856614048758-e0b1f3d4cb371f92260edb0d9444d206"',
    '"token1": "xapp-1-A052FGTS2DL-5171572773297-610b6a11f4b7eb819e87b767d80e6575a3634791acb9a9ead051da879eb5b55e"',
    '"access_token1": "xoxe.xoxp-1-Mi0yLTM0MTQwNDE0MDE3Ni0zNjU5NDY0Njg4MTctNTE4MjA3NTQ5NjA4MC01NDEyOTYyODY5NzUxLThhMTBjZmI1ZWIzMGIwNTg0ZDdmMDI5Y2UxNzVlZWVhYzU2ZWQyZTZiODNjNDZiMGUxMzRlNmNjNDEwYmQxMjQ"',
    '"refresh_token1": "xoxe-1-My0xLTMxNzcwMjQ0MTcxMy01MTU4MTUyNjkxNzE0LTUxODE4NDI0MDY3MzYtMjA5MGFkOTFlZThkZWE2OGFlZDYwYWJjODNhYzAxYjA5ZjVmODBhYjgzN2QyNDdjOTNlOGY5NTg2YWM1OGM4Mg"',
    '"bot_token1": "xoxb-263594206564-FGqddMF8t08v8N7Oq4i57vs1"', '"bot_token2": "xoxb-282029623751-BVtmnS3BQitmjZvjpQL7PSGP"', '"bot_token3": "xoxb-47834520726-N3otsrwj8Cf99cs8GhiRZsX1"',
    '"bot_token4": "xoxb-123456789012-Xw937qtWSXJss1lFaKe"', '"bot_token5": "xoxb-312554961652-uSmliU84rFhnUSBq9YdKh6lS"', '"bot_token6": "xoxb-51351043345-Lzwmto5IMVb8UK36MghZYMEi"',
    '"bot_token7": "xoxb-130154379991-ogFL0OFP3w6AwdJuK7wLojpK"', '"bot_token8": "xoxb-159279836768-FOst5DLfEzmQgkz7cte5qiI"', '"bot_token9": "xoxb-50014434-slacktokenx29U9X1bQ"',
    '"access_token": "xoxa-2-511111111-31111111111-3111111111111-e039d02840a0b9379c"',
    '"access_token1": "xoxs-3206092076-3204538285-3743137121-836b042620"', '"access_token2": "xoxs-416843729158-132049654-5609968301-e708ba56e1"',
    '"access_token3": "xoxs-420083410720-421837374423-440811613314-977844f625b707d5b0b268206dbc92cbc85feef3e71b08e44815a8e6e7657190"',
    '"access_token4": "xoxs-4829527689-4829527691-4814341714-d0346ec616"', '"access_token5": "xoxs-155191149137-155868813314-338998331396-9f6d235915"',
    '"access_token7": "xoxo-523423-234243-234233-e039d02840a0b9379c"',
  ]),
  // Slack webhooks
  ...['hooks.slack.com/services/', 'http://hooks.slack.com/services/', 'https://hooks.slack.com/services/', 'hooks.slack.com/workflows/', 'http://hooks.slack.com/workflows/', 'https://hooks.slack.com/workflows/']
    .map((p, i) => ({ provider: 'slack-webhook', text: `webhook: ${p}${pick(CS.alnum, 44 + (i % 3))}`, source: `${GL}/slack.go webhook (generated from its spec)` })),
  { provider: 'slack-webhook', text: `post to https://hooks.slack.com/triggers/${pick(CS.alnum, 56)}`, source: `${GL}/slack.go webhook (generated from its spec)` },
  ...lit('slack-webhook', `${GL}/slack.go`, [
    'http://hooks.slack.com/services/T024TTTTT/BBB72BBL/AZAAA9u0pA4ad666eMgbi555', 'https://hooks.slack.com/services/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',
    'https://hooks.slack.com/workflows/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', 'http://hooks.slack.com/workflows/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',
  ]),
  // Stripe (issue 13: sk_prod_, rk_prod_ missed)
  ...['sk_test_', 'sk_live_', 'sk_prod_', 'rk_live_', 'rk_prod_', 'rk_test_'].flatMap((p) => generated('stripe', 'stripe', `${GL}/stripe.go (sk|rk)_(test|live|prod)_`, () => p + pick(CS.alnum, 30)).slice(0, 3)),
  // JWT (issue 13: unsigned and two-part tokens missed)
  ...lit('jwt', `${GL}/jwt.go`, [
    'eyJhbGciOieeeiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwic3ViZSI6IjEyMzQ1Njc4OTAiLCJuYW1lZWEiOiJKb2huIERvZSIsInN1ZmV3YWZiIjoiMTIzNDU2Nzg5MCIsIm5hbWVmZWF3ZnciOiJKb2huIERvZSIsIm5hbWVhZmV3ZmEiOiJKb2huIERvZSIsInN1ZndhZndlYWIiOiIxMjM0NTY3ODkwIiwibmFtZWZ3YWYiOiJKb2huIERvZSIsInN1YmZ3YWYiOiIxMjM0NTY3ODkwIiwibmFtZndhZSI6IkpvaG4gRG9lIiwiaWZ3YWZhYXQiOjE1MTYyMzkwMjJ9.a_5icKBDo-8EjUlrfvz2k2k-FYaindQ0DEYNrlsnRG0==',
  ]),
  ...generated('jwt', 'jwt', 'JWT HS256 (RFC 7519 shape)', () => `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${pick(CS.alnum, 12)}","iat":${1_700_000_000 + Math.floor(rand() * 1e7)}}`)}.${pick(CS.ext, 43)}`),
  ...generated('jwt', 'jwt', 'JWT unsigned, alg none (issue 13)', () => `${b64url('{"alg":"none","typ":"JWT"}')}.${b64url(`{"sub":"${pick(CS.alnum, 12)}","role":"admin"}`)}.`),
  ...generated('jwt', 'jwt', 'JWT two-part, header.payload (issue 13)', () => `${b64url('{"alg":"RS256","kid":"' + pick(CS.alnum, 8) + '"}')}.${b64url(`{"sub":"${pick(CS.alnum, 16)}","exp":${1_800_000_000 + Math.floor(rand() * 1e7)}}`)}`),
  // URL credentials (issue 13: 20/29 before; redis://:pw@ missed)
  ...[
    (pw: string) => `DATABASE_URL=postgres://app_user:${pw}@db.internal:5432/app`, (pw: string) => `redis://:${pw}@cache.example.net:6379/0`,
    (pw: string) => `mongodb+srv://admin:${pw}@cluster0.ab1cd.mongodb.net/prod`, (pw: string) => `mysql://root:${pw}@10.0.0.12/shop`,
    (pw: string) => `amqp://worker:${pw}@rabbit.example.org:5672/`, (pw: string) => `git clone https://deploy:${pw}@git.example.com/team/repo.git`,
    (pw: string) => `ftp://backup:${pw}@files.example.com/dump.tgz`, (pw: string) => `REDIS_URL=rediss://default:${pw}@eu1.upstash.io:6379`,
    (pw: string) => `https://user:${pw}@www.httpwatch.com/httpgallery/authentication/authenticatedimage/default.aspx`,
  ].map((f) => ({ provider: 'url-credentials', text: f(pick(CS.alnum, 18)), source: 'URI credential shapes (trufflehog pkg/detectors/uri; issue 13), generated password' })),
  // GitHub
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].flatMap((p) => generated('github', 'github', `${GL}/github.go`, () => p + pick(CS.alnum, 36)).slice(0, 3)),
  ...generated('github', 'github', `${GL}/github.go fine-grained`, () => `github_pat_${pick(CS.alnum, 22)}_${pick(CS.alnum, 59)}`).slice(0, 3),
  // Anthropic
  ...lit('anthropic', `${GL}/anthropic.go`, [
    'sk-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzAA',
    'sk-ant-admin01-abc12fake-456def789ghij-klmnopqrstuvwx-3456yza789bcde-12fakehijklmnopby56aaaogaopaaaabc123xyzAA',
  ]),
  ...generated('anthropic', 'anthropic', `${GL}/anthropic.go api03`, () => `sk-ant-api03-${pick(CS.ext, 93)}AA`).slice(0, 3),
  ...generated('anthropic', 'anthropic', `${GL}/anthropic.go admin01`, () => `sk-ant-admin01-${pick(CS.ext, 93)}AA`).slice(0, 2),
  ...generated('anthropic', 'anthropic', `${GL}/anthropic.go oat01`, () => `sk-ant-oat01-${pick(CS.ext, 100)}`).slice(0, 2),
  // Google
  ...generated('google', 'gcp', `${GL}/gcp.go`, () => 'AIza' + pick(CS.ext, 35)),
  ...lit('google', `${GL}/gcp.go`, ['AIzaSyNHxIf32IQ1a1yjl3ZJIqKZqzLAK1XhDk-']),
  // issue 13's adversarial formats, from the scanners' specs
  ...generated('npm', 'npm', `${GL}/npm.go`, () => 'npm_' + pick(CS.alnum, 36)),
  ...generated('pypi', 'pypi', `${GL}/pypi.go`, () => 'pypi-AgEIcHlwaS5vcmc' + pick(CS.hex, 64)),
  ...generated('gitlab', 'gitlab', `${GL}/gitlab.go glpat`, () => 'glpat-' + pick(CS.alnum, 20)).slice(0, 3),
  ...generated('gitlab', 'gitlab', `${GL}/gitlab.go glpat routable`, () => `glpat-${pick(CS.alnum, 27)}.${pick(CS.lowerNum, 2)}${pick(CS.lowerNum, 7)}`).slice(0, 2),
  ...generated('gitlab', 'gitlab', `${GL}/gitlab.go glptt`, () => 'glptt-' + pick(CS.hex, 40)).slice(0, 2),
  ...generated('gitlab', 'gitlab', `${GL}/gitlab.go gldt/glrt/GR1348941`, () => ['gldt-', 'glrt-', 'GR1348941'][Math.floor(rand() * 3)] + pick(CS.alnum, 20)).slice(0, 3),
  ...generated('huggingface', 'huggingface', `${GL}/huggingface.go`, () => 'hf_' + pick(CS.alpha, 34)),
  ...lit('huggingface', `${GL}/huggingface.go`, [
    'huggingface-cli login --token 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', 'huggingface-cli login --token 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',
    '-H "Authorization: Bearer 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"', 'DEV=1 HF_TOKEN=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 poetry run python app.py',
    "use_auth_token='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')", 'CI_HUB_USER_TOKEN = "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"',
    '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', "os.environ['HUGGINGFACEHUB_API_TOKEN'] = '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'",
  ]),
  ...generated('sendgrid', 'sendgrid', `${GL}/sendgrid.go (SG. + 22 + . + 43, the documented shape)`, () => `SG.${pick(CS.ext, 22)}.${pick(CS.ext, 43)}`),
  ...generated('telegram', 'telegram', `${GL}/telegram.go`, () => `${pick(CS.num, 8 + Math.floor(rand() * 3))}:A${pick(CS.ext, 34)}`),
  ...generated('azure', 'azure', 'Azure storage connection string (AccountKey=, 64 random bytes base64)', () => `DefaultEndpointsProtocol=https;AccountName=${pick(LOWER, 10)};AccountKey=${Buffer.from(pick(CS.alnum, 64)).toString('base64').slice(0, 86)}==;EndpointSuffix=core.windows.net`),
  ...['dop_v1_', 'doo_v1_', 'dor_v1_'].flatMap((p) => generated('digitalocean', 'do', `${GL}/digitalocean.go`, () => p + pick(CS.hex, 64)).slice(0, 2)),
  ...['shpat_', 'shpss_', 'shpca_', 'shppa_'].flatMap((p) => generated('shopify', 'shopify', `${GL}/shopify.go`, () => p + pick(CS.hex, 32)).slice(0, 2)),
  ...['DB_PASSWORD', 'POSTGRES_PASSWORD', 'API_SECRET', 'STRIPE_SECRET_KEY', 'JWT_SECRET', 'ADMIN_TOKEN'].map((v) => ({ provider: 'env-assignment', text: `export ${v}=${pick(CS.alnum, 20)}`, source: 'issue 13 (export DB_PASSWORD=…), generated value' })),
  { provider: 'env-assignment', text: 'api_key="sk-abcdef1234567890abcdef12"', source: 'hermes-agent tests/tools/test_memory_tool.py (hardcoded_secret)' },
];

const NEG = 'gitleaks fps';
export const SECRET_NEGATIVES: readonly SecretSample[] = [
  ...lit('aws', `${NEG} aws.go`, ['key = AKIAXXXXXXXXXXXXXXXX', 'aws_access_key: AKIAIOSFODNN7EXAMPLE', 'msgstr "Näytä asiakirjamallikansio."', 'TODAYINASIAASACKOFRICEFELLOVER']),
  ...lit('aws', 'trufflehog accesskey_test.go invalid pattern', ['aws credentials{ id: AKIAs9L8MS5iPHTZPPUQ secret: $YenOG.PKHl7LcdVYsjaR4LgQiZ1zw3MAnMyiondXC63; }']),
  ...lit('aws', 'AWS documentation example keys', ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE', 'AWS_SECRET_ACCESS_KEY=je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY']),
  ...lit('slack', `${NEG} slack.go`, [
    'xoxb-xxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx', 'xoxb-xxx', 'xoxb-12345-abcd234', 'xoxb-xoxb-my-bot-token',
    'https://docs.google.com/document/d/1W7KCxOxP-1Fy5EyF2lbJGE2WuKmu5v0suYqoHas1jRM', '"token1": "xoxp-1234567890"',
    '"token2": "xoxp-XXXXXXXXXX-XXXXXXXXXX-XXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"', '"token3": "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d"',
    '"token4": "xoxp-572370529330-573807301142-572331691188-####################"', 'xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere', 'xoxe.xoxp-1-RANDOMSTRINGHERE',
    'xoxe.xoxp-1-initial', 'xoxe-1-xxx', 'XOxE-RROAmw, Home and Garden, 5:24, 20120323', 'xoxb-xxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx', 'xoxb-Slack_BOT_TOKEN', 'xoxb-abcdef-abcdef',
    'https://github.com/xoxa-nyc/xoxa-nyc.github.io/blob/master/README.md', 'https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg',
  ]),
  ...lit('slack-webhook', 'placeholders', ['https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX', 'SLACK_WEBHOOK_URL=https://hooks.slack.com/services/YOUR/WEBHOOK/URL']),
  ...lit('github', 'placeholders (issue 13: ghp_xxxx…)', [
    'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'token: ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', 'ghp_************************************',
    'export GH_TOKEN=ghp_your_token_here', 'ghp_1234567890abcdefghijklmnopqrstuvwxyz', 'gho_0000000000000000000000000000000000000', 'ghp_<your-token>', 'github_pat_xxxxxxxxxxxxxxxxxxxxxx_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  ]),
  ...lit('anthropic', `${NEG} anthropic.go`, [
    'sk-ant-api03-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA', 'sk-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzBB',
    'sk-ant-admin01-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA', 'sk-ant-admin01-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzBB',
    'anthropic_token = "sk-ant-oat01-tooShort"', 'ANTHROPIC_API_KEY=sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxAA',
  ]),
  ...lit('google', `${NEG} gcp.go`, [
    'GWw4hjABFzZCGiRpmlDyDdo87Jn9BN9THUA47muVRNunLxsa82tMAdvmrhOqNkRKiYMEAFbTJAIzaTesb6Tscfcni8vIpWZqNCXFDFslJtVSvFDq', 'AIzaTesb6Tscfcni8vIpWZqNCXFDFslJtVSvFDqabcd123',
    'apiKey: "AIzaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"', 'AIZASYCO2CXRMC9ELSKLHLHRMBSWDEVEDZTLO2O',
    'AIzaSyabcdefghijklmnopqrstuvwxyz1234567', 'AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs', 'AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM', 'AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU',
    'AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0', 'AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A', 'AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c', 'AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4',
    'AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY', 'AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM', 'AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ', 'AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g',
    'AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU', 'AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw', 'AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE', 'AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY',
  ]),
  ...lit('gitlab', `${NEG} gitlab.go`, ['glpat-XXXXXXXXXXX-XXXXXXXX', 'glpat-xxxxxxxx-xxxxxxxxxxxxxxxxxx.xxxxxxxxx', 'glptt-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'GR134894112312312312312312312', 'GR1348941XXXXXXXXXXXXXXXXXXXX', 'glrt-tx_xxxxxxxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxx']),
  ...lit('huggingface', `${NEG} huggingface.go`, [
    '- (id)hf_requiredCharacteristicTypesForDisplayMetadata;', 'amazon.de#@#div[data-cel-widget="desktop-rhf_SponsoredProductsRemoteRHFSearchEXPSubsK2ClickPagination"]',
    '_kHMSymptomhf_generatedByHomeAppForDebuggingPurposesKey,', '#define OSCHF_DebugGetExpectedAverageCrystalAmplitude NOROM_OSCHF_DebugGetExpectedAverageCrystalAmplitude',
    'M_UINT       (ServingCellPriorityParametersDescription_t,  H_PRIO,  2, &hf_servingcellpriorityparametersdescription_h_prio),',
    'os.environ.get("HF_AUTH_TOKEN", "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),', 'HUGGINGFACE_API_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,',
    'public static final String API_ORG_EXIST = "APIOrganizationExist";', "const api_org_controller = require('../../controllers/api/index').organizations;",
    'You should see a token hf_xxxxx (old tokens are api_XXXXXXXX or api_org_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx).',
  ]),
  ...lit('telegram', `${NEG} telegram.go (shapes)`, [
    `telegram_token = "1234:A${'b1C2d3E4f5G6h7I8j9K0l1M2n3O4p5Q6r7'}"`, `<xsd:element name="AgencyIdentificationCode" type="clm12345:AgencyIdentificationCodeContentType"/>`,
    `telegram_api_token = "12345678:Ahello${'Zq9wX2eR7tY4uI1oP6aS3dF8gH5jK0lQ2w'}"`, `telegram_api_token = "12345678:A-some-other-thing-${'Zq9wX2eR7tY4uI1oP6aS3dF8gH5jK0lQ2w'}"`,
  ]),
  ...lit('azure', 'Azurite documented development key', ['DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;']),
  ...lit('jwt', 'jwt.io documented example', ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c']),
  ...lit('url-credentials', 'placeholders and references', [
    'file://user:pass@foo.com:123/wh/at/ever', 'postgres://user:password@localhost:5432/app', 'redis://:${REDIS_PASSWORD}@cache:6379', 'https://user:**********@www.httpwatch.com/httpgallery/',
    'mysql://root:<password>@127.0.0.1/db', 'DATABASE_URL=postgresql://USER:PASSWORD@HOST:PORT/DATABASE', 'amqp://guest:guest@localhost:5672/', 'mongodb://admin:REDACTED@cluster0/',
  ]),
  ...lit('env-assignment', 'references and placeholders', [
    'export DB_PASSWORD=$(op read op://vault/db/password)', 'export DB_PASSWORD=changeme', 'export API_SECRET="${API_SECRET:?}"', 'export GITHUB_TOKEN=$(gh auth token)',
    'password: "your-password-here"', 'token = "<insert token>"', 'api_key="REDACTED"', 'export JWT_SECRET=xxxxxxxxxxxxxxxx',
  ]),
  ...lit('stripe', 'placeholders', ['STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx', 'sk_test_XXXXXXXXXXXXXXXXXXXXXXXX', 'rk_live_************************']),
];
