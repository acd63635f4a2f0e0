/**
 * What the offline ranker knows about words: English function words to ignore, and groups of
 * terms that mean the same thing in everyday software work (an "outage" is an incident, "styling"
 * is CSS). A query term also matches its group, at a lower weight than itself.
 */

export const STOPWORDS = new Set(
  (
    'a an and any are as at be been but by can could did do does doing for from had has have how i if in into ' +
    'is it its just me my no not now of on or our out please should so some such than that the their them then ' +
    'there these they this those to too up us very was we were what when where which while who why will with ' +
    'would you your yours about again also all am because before being both each few more most much only other ' +
    'own same she he him her his here over under until off once via per let lets get got go going make need ' +
    'want new thing things way look see tell show give take use using used work working last next one two ' +
    // Requests to an agent start with a verb that says what to do, not what it is about.
    'add adding put print send fix write update change create remove find set run check handle try keep ' +
    'keeps start help know think mean like good bad right wrong'
  ).split(' '),
)

/** Each line: terms (one or two words) used for the same thing. */
export const SYNONYM_GROUPS: readonly string[][] = [
  ['incident', 'outage', 'downtime', 'postmortem', 'outages'],
  ['style', 'styling', 'css', 'stylesheet'],
  ['test', 'spec', 'testing'],
  ['bug', 'defect', 'ticket', 'issue'],
  ['deploy', 'deployment', 'release', 'ship', 'rollout'],
  ['prod', 'production', 'live'],
  ['login', 'signin', 'auth', 'authentication', 'session', 'sso', 'oauth'],
  ['db', 'database', 'postgres', 'postgresql', 'pg', 'sql'],
  ['perf', 'performance', 'latency', 'slow', 'slower', 'speed'],
  ['config', 'configuration', 'settings'],
  ['docs', 'documentation', 'readme'],
  ['ci', 'continuous integration', 'pipeline', 'github actions'],
  [
    'translation',
    'translate',
    'i18n',
    'internationalization',
    'internationalisation',
    'localization',
    'locale',
    'l10n',
  ],
  ['k8s', 'kubernetes', 'helm'],
  ['privacy', 'gdpr', 'personal data'],
  ['email', 'mail', 'smtp'],
  ['secret', 'credential', 'creds', 'api key', 'token'],
  ['analytics', 'tracking', 'telemetry'],
  ['dark mode', 'theme'],
  ['accessible', 'accessibility', 'a11y', 'wcag', 'screen reader', 'aria'],
  ['flaky', 'intermittent', 'randomly', 'unstable'],
  ['retry', 'backoff'],
  ['backup', 'restore', 'snapshot'],
  ['rate limit', 'throttle', '429', 'too many requests'],
  ['oncall', 'pagerduty', 'rota'],
  ['wording', 'copy', 'microcopy'],
  ['dependency', 'deps', 'package', 'library'],
  ['commit', 'git'],
  ['log', 'logging', 'logger'],
  ['error', 'exception'],
  ['money', 'currency', 'amount', 'cents'],
  ['timezone', 'tz', 'utc', 'time zone'],
  ['cache', 'caching', 'cached'],
  ['pr', 'pull request', 'merge request', 'code review'],
  ['goal', 'okr', 'objective', 'target', 'roadmap'],
  ['quarter', 'quarterly', 'q1', 'q2', 'q3', 'q4'],
  ['offline', 'network', 'connectivity', 'no signal'],
  ['mobile', 'ios', 'android', 'app store', 'play store', 'testflight', 'iphone'],
  ['crash', 'crashlytics', 'sentry', 'stack trace'],
  ['freeze', 'christmas', 'holiday', 'holidays', 'year end'],
  ['vpn', 'tailscale', 'wireguard', 'bastion'],
  ['feature flag', 'flag', 'toggle', 'launchdarkly', 'experiment'],
  ['trace', 'tracing', 'span', 'spans', 'opentelemetry', 'otel', 'honeycomb', 'jaeger'],
  ['s3', 'bucket', 'object storage'],
  ['terraform', 'tf', 'iac', 'infrastructure as code', 'aws console'],
  ['alert', 'alerting', 'page', 'paging', 'pager'],
  ['elasticsearch', 'opensearch', 'search index', 'reindex', 'mapping'],
  ['cert', 'certificate', 'tls', 'ssl', 'https'],
  ['vat', 'tax', 'sales tax'],
  ['review', 'approval', 'approve', 'reviewer', 'codeowners'],
  ['lint', 'eslint', 'linter', 'prettier'],
  ['component', 'ui component', 'storybook', 'widget'],
  ['changelog', 'release notes'],
  ['dashboard', 'grafana', 'metabase', 'looker', 'report'],
  ['warehouse', 'snowflake', 'bigquery', 'dbt'],
  ['pii', 'email address', 'address'],
  ['vendor', 'provider', 'third party'],
  // Everyday abbreviations of software work, each beside what it stands for.
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['repo', 'repository'],
  ['env', 'environment'],
  ['dev', 'development'],
  ['infra', 'infrastructure'],
  ['msg', 'message'],
  ['impl', 'implementation'],
  ['async', 'asynchronous'],
  ['gh', 'github'],
  ['img', 'image'],
  ['ui', 'user interface'],
  ['password', 'passwd', 'pw'],
  ['regex', 'regexp', 'regular expression'],
  ['vm', 'virtual machine'],
  ['lb', 'load balancer'],
  ['frontend', 'fe'],
  ['mq', 'message queue'],
  ['mgmt', 'management'],
  ['prefs', 'preferences'],
  ['admin', 'administrator'],
  ['2fa', 'mfa', 'twofactor', 'multi factor', 'totp'],
]

/**
 * Two words written apart for what is also written as one ("log in" / login, "roll back" /
 * rollback, "on call" / oncall): the pair is also that one word's term, whatever form its first
 * word takes ("rolling back", "backed up"). Mostly a verb and its particle, which alone are a
 * common word and a stopword, so that "how do I log in" asks about logging in, not about logs. A
 * first word marked `=` counts only as written: "logging in the handler" is about logs.
 */
export const COMPOUND_PAIRS: readonly string[] = (
  '=log in,=log out,=log on,sign in,sign out,sign up,sign off,set up,shut down,check out,check in,' +
  'back up,roll back,roll out,start up,clean up,look up,tear down,fall back,fail over,time out,' +
  'follow up,kick off,trade off,cut over,hand off,hand over,work around,opt out,opt in,plug in,' +
  'pop up,drop down,warm up,cool down,spin up,stand up,break down,on call,e mail,web hook,' +
  'code base,work flow,dead line,mono repo,life cycle,end point,file name,user name,pass word,' +
  'front end,back end,data base,key board,short cut,screen shot,run book,play book,road map,two factor'
).split(',')
