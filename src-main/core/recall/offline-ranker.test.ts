import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeFile } from '../../../test/helpers/temp-env.js'
import { scanMemoryFiles } from '../store/scan.js'
import { rankMemoriesOffline, tokenize } from './offline-ranker.js'
import { MAX_TERM_LENGTH } from './terms.js'

function dir(files: Record<string, [string, string, string]>) {
  const d = tempDir()
  for (const [f, [name, description, body]] of Object.entries(files))
    writeFile(join(d, f), `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`)
  return d
}

const rank = async (d: string, q: string) =>
  (await rankMemoriesOffline(q, await scanMemoryFiles(d))).map((r) => r.header.filename)

describe('offline ranker', () => {
  it('finds a memory written in British spelling by the American word, and the other way round', async () => {
    const d = dir({
      'inputs.md': ['Input rules', 'normalise user data before we serialise it', 'see the wiki'],
      'retention.md': ['Retention', 'user data is kept for 30 days', 'then deleted'],
      'theme.md': ['Theme', 'brand colors live in the design tokens', 'figma'],
      'lunch.md': ['Lunch', 'the team lunch menu on fridays', 'pizza'],
    })
    expect(await rank(d, 'normalize and serialize')).toEqual(['inputs.md'])
    expect(await rank(d, 'which colour')).toEqual(['theme.md'])
  })

  it('reads a verb and its particle as the word they make: "log in" asks about login, not logs', async () => {
    const d = dir({
      'logging.md': ['Logging format', 'structured JSON logs via pino, never console.log', 'x'],
      'login.md': ['Staging login', 'staging uses SSO via okta; ask IT for access', 'x'],
      'setup.md': ['Dev setup', 'run make bootstrap on a new laptop', 'x'],
      'shutdown.md': ['Graceful shutdown', 'drain connections on SIGTERM before exit', 'x'],
      'rollback.md': ['Rollbacks', 'quay rollback reverts to the previous release', 'x'],
      'oncall.md': ['Oncall', 'the oncall rota is in pagerduty', 'x'],
    })
    expect(await rank(d, 'how do I log in to staging')).toEqual(['login.md'])
    expect(await rank(d, 'how do I set up my laptop')).toEqual(['setup.md'])
    expect(await rank(d, 'shutting down the server cleanly')).toEqual(['shutdown.md'])
    expect(await rank(d, 'rolled back the release')).toEqual(['rollback.md'])
    expect(await rank(d, 'who is on call this week')).toEqual(['oncall.md'])
    // "logging in the handler" is writing logs there, not signing in.
    expect(await rank(d, 'add debug logging in the handler')).toEqual(['logging.md'])
  })

  it('finds a memory by an everyday abbreviation of what it names, and by the long form of one it uses', async () => {
    const pairs = [
      ['repo', 'repository'],
      ['env', 'environment'],
      ['typescript', 'ts'],
      ['regex', 'regular expression'],
      ['two factor', '2fa'],
      ['continuous integration', 'ci'],
      ['pg', 'postgres'],
      ['load balancer', 'lb'],
    ]
    for (const [asked, written] of pairs) {
      const d = dir({
        'target.md': ['Notes', `how we handle the ${written} here`, 'see the wiki'],
        'lunch.md': ['Lunch', 'the team lunch menu on fridays', 'pizza'],
        'vacation.md': ['Handbook', 'how we handle vacations here', 'ask HR'],
      })
      expect(await rank(d, `${asked} rules`), `"${asked}" for "${written}"`).toEqual(['target.md'])
    }
  })

  it('of thousands that match alike, returns the five best: the higher score, then the newer', async () => {
    const d = tempDir()
    const t0 = Date.UTC(2026, 0, 1) / 1000
    for (let i = 0; i < 3_000; i++) {
      // Three scores (the extra words lengthen a memory), and mtimes that repeat every 500.
      const extra = ' and more'.repeat(i % 3)
      const file = writeFile(
        join(d, `m${String(i).padStart(4, '0')}.md`),
        `---\nname: Release flags ${i}\ndescription: release flags for the deploy${extra}\ntype: project\n---\n\nx\n`,
      )
      utimesSync(file, t0 + (i % 500), t0 + (i % 500))
    }
    const all = await scanMemoryFiles(d, { limit: Infinity })
    const ranked = await rankMemoriesOffline('release flags deploy', all)
    // The reference: every memory ranked, sorted whole (stable: the scan's order breaks full ties).
    const reference = (await rankMemoriesOffline('release flags deploy', all, { limit: Infinity }))
      .slice()
      .sort((a, b) => b.score - a.score || b.header.mtimeMs - a.header.mtimeMs)
    expect(ranked.length).toBe(5)
    expect(ranked.map((r) => r.header.filename)).toEqual(reference.slice(0, 5).map((r) => r.header.filename))
    expect(new Set(ranked.map((r) => r.score)).size).toBe(1)
    expect(ranked.map((r) => r.header.mtimeMs)).toEqual(
      [...ranked.map((r) => r.header.mtimeMs)].sort((a, b) => b - a),
    )
  })

  it('returns every memory close to the best one, and nothing when the best covers too little', async () => {
    const d = dir({
      'canary.md': [
        'Canary first',
        'ship a production deploy to the canary pool before the full rollout',
        '',
      ],
      'freeze.md': ['Deploy freeze', 'no production deploy in the holiday freeze', ''],
      'runbook.md': ['Deploy runbook', 'how to roll back a production deploy', ''],
      'lunch.md': ['Team lunch', 'the team eats together on Fridays', ''],
    })
    expect((await rank(d, 'production deploy')).sort()).toEqual(['canary.md', 'freeze.md', 'runbook.md'])
    // One shared common word is not an answer.
    expect(await rank(d, 'order team laptops for the interns and the printer')).toEqual([])
  })

  it('finds memories written in Japanese, Chinese and Korean, whose words have no spaces between them', async () => {
    const d = dir({
      'deploy.md': ['デプロイ手順', '本番環境へのデプロイ方法とロールバック', 'quay ship --canary を使う'],
      'bus.md': ['バスの時刻表', '会社の前のバス停', ''],
      'path.md': ['パスの設定', 'PATH 環境変数に bin を追加する', ''],
      'db.md': ['数据库迁移', '每次发布前先在预发布环境运行数据库迁移', ''],
      'review.md': ['코드 리뷰 규칙', '모든 풀 리퀘스트는 두 명의 승인이 필요합니다', ''],
      'lunch.md': ['Team lunch', 'the team eats together on Fridays', ''],
    })
    expect(await rank(d, '本番にデプロイするにはどうすればいい？')).toEqual(['deploy.md'])
    expect(await rank(d, '数据库迁移怎么做')).toEqual(['db.md'])
    expect(await rank(d, '리뷰 승인은 몇 명이 필요해?')).toEqual(['review.md'])
    // A voiced kana is its own letter: the path memory is not the bus timetable.
    expect(await rank(d, 'パスの設定を変えたい')).toEqual(['path.md'])
    expect(await rank(d, '猫の写真を整理したい')).toEqual([])
    // Thai is written without spaces too.
    const thai = dir({
      'deploy.md': ['การปรับใช้ระบบ', 'ขั้นตอนการปรับใช้ไปยังเซิร์ฟเวอร์จริง', ''],
      'lunch.md': ['อาหารกลางวันของทีม', 'ทีมกินข้าวด้วยกันทุกวันศุกร์', ''],
    })
    expect(await rank(thai, 'ปรับใช้เซิร์ฟเวอร์อย่างไร')).toEqual(['deploy.md'])
    expect(tokenize('v2のデプロイ')).toEqual(['v2', 'デプ', 'プロ', 'ロイ'])
  })

  it('ranks a prompt that carries a pasted blob as if the blob were not there', async () => {
    const d = dir({
      'kafka.md': ['Kafka consumer lag', 'the orders consumer group pages on-call past 50k lag', ''],
      'lunch.md': ['Team lunch', 'the team eats together on Fridays', ''],
    })
    const blob = 'A9'.repeat(40_000) // one 80,000-character "word", past what a regex literal may hold
    expect(await rank(d, `kafka consumer lag alert again, dump: ${blob}`)).toEqual(['kafka.md'])
    expect(await rank(d, `kafka consumer lag alert again`)).toEqual(['kafka.md'])
    expect(tokenize(`ok ${'x'.repeat(MAX_TERM_LENGTH)} ${'y'.repeat(MAX_TERM_LENGTH + 1)}`)).toEqual([
      'ok',
      'x'.repeat(MAX_TERM_LENGTH),
    ])
  })

  it('recalls what a question asks about when a log or trace pasted with it has words no memory has', async () => {
    const d = dir({
      'deploy.md': [
        'Deploy pipeline',
        'production deploys go through ArgoCD blue-green',
        'Roll back with argocd.',
      ],
      'kafka.md': ['Kafka consumer lag', 'the orders consumer group pages on-call past 50k lag', ''],
      ...Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`n${i}.md`, [`Note ${i}`, `widgets and gadgets ${i}`, '']]),
      ),
    })
    const log = Array.from(
      { length: 60 },
      (_, i) =>
        `2026-12-07T10:0${i % 10}:00Z ERROR kube-controller pod web-7f9c${i} CrashLoopBackOff: container exited with code 137 (OOMKilled)`,
    ).join('\n')
    const trace = Array.from(
      { length: 30 },
      (_, i) => `    at Object.<anonymous> (/srv/app/lib/h${i}.js:${i}:7)`,
    )
    expect(await rank(d, `the deploy failed, why? the log:\n${log}`)).toEqual(['deploy.md'])
    expect(await rank(d, `${trace.join('\n')}\n\nwhy did the deploy fail?`)).toEqual(['deploy.md'])
    // A question no memory answers stays unanswered, log or not.
    expect(await rank(d, `the payments service is slow, why? the log:\n${log}`)).toEqual([])
    expect(await rank(d, log)).toEqual([])
  })

  it('finds an identifier written in camel case and its words written apart, each from the other', async () => {
    const d = dir({
      'orders.md': ['Orders repository', 'the orders repository retries a write on deadlock', ''],
      'auth.md': [
        'Session refresh',
        'refresh before expiry',
        'The `useAuthToken` hook refreshes 60 s early.',
      ],
      'pager.md': ['PagerDuty escalation', 'who is paged after 15 minutes', ''],
      'ios.md': ['iOS release', 'TestFlight builds go out on Thursdays', ''],
      'lunch.md': ['Team lunch', 'the team eats together on Fridays', ''],
    })
    expect(await rank(d, 'OrdersRepository keeps deadlocking')).toEqual(['orders.md'])
    expect(await rank(d, 'when does the auth token get refreshed?')).toEqual(['auth.md'])
    expect(await rank(d, 'useAuthToken refresh')).toEqual(['auth.md'])
    expect(await rank(d, 'pagerduty escalation after how long')).toEqual(['pager.md'])
    expect(await rank(d, 'Pager Duty escalation')).toEqual(['pager.md'])
    // The identifier is one thing asked about, as before it was split: its words do not outweigh
    // the rest of the question.
    const t = dir({
      'http.md': ['HTTP timeouts', 'every outbound call times out after 30 s', ''],
      'lunch.md': ['Team lunch', 'the team eats together on Fridays', ''],
    })
    expect(await rank(t, 'OrdersRepository timeout')).toEqual(['http.md'])
    // Names whose parts are no words of their own stay whole: macOS is not "os".
    expect(tokenize('iOS macOS DynamoDB')).toEqual(['io', 'maco', 'dynamodb'])
    expect(tokenize('HTTPServer')).toEqual(['http', 'server', 'httpserver'])
    // A blob in camel case is no identifier: none of its pieces become terms.
    expect(tokenize(`ok ${'AbcDef'.repeat(40)}`)).toEqual(['ok'])
  })

  it('counts a phrase asked about once: a memory that names it by its synonym covers all of it', async () => {
    const d = dir({
      'small_prs.md': ['Small PRs', 'keep PRs under 400 lines; refactors apart from behaviour changes', ''],
      'http.md': ['HTTP client', 'every outbound request goes through the shared client with retries', ''],
      'lunch.md': ['Team lunch', 'the team eats together on Fridays', ''],
    })
    expect(await rank(d, 'how big should my pull request be')).toEqual(['small_prs.md'])
  })

  it('folds accents and splits on anything but letters and digits, ASCII or not', () => {
    expect(tokenize('Café résumé: v2_api, naïve-Übersetzung')).toEqual([
      'cafe',
      'resum',
      'v2',
      'api',
      'naiv',
      'ubersetzung',
    ])
    expect(tokenize('CAFE resume: v2_api, naive-Ubersetzung')).toEqual([
      'cafe',
      'resum',
      'v2',
      'api',
      'naiv',
      'ubersetzung',
    ])
  })

  it('matches other word forms through the stemmer', async () => {
    expect(tokenize('Translations translated translating')).toEqual(['translat', 'translat', 'translat'])
    const d = dir({
      'i18n.md': ['Translations', 'UI strings are translated in Crowdin', 'Keys go in locales/en.json.'],
      'ci.md': ['CI', 'GitHub Actions runs the tests', 'Lint, unit, e2e.'],
    })
    expect(await rank(d, 'add a translation for the settings page')).toEqual(['i18n.md'])
  })

  it('matches software synonyms; a memory with the word itself comes first', async () => {
    const d = dir({
      'incident.md': [
        'June incident',
        'payments went down: connection pool exhausted',
        'Postmortem in ops/.',
      ],
      'outage.md': ['DNS outage', 'an expired DNS record took the API down', 'Renew via Terraform.'],
      'styles.md': ['Styling', 'components use CSS modules', 'No inline styles.'],
    })
    expect((await rank(d, 'summarise the outage'))[0]).toBe('outage.md')
    // Neither says "downtime": found through the synonyms alone.
    const down = await rank(d, 'summarise the downtime')
    expect(down.length).toBeGreaterThan(0)
    expect(down.every((f) => f === 'incident.md' || f === 'outage.md')).toBe(true)
    expect(await rank(d, 'where does the css go')).toEqual(['styles.md'])
    expect(await rank(d, 'how do I style a button')).toEqual(['styles.md'])
  })

  it('weighs what a memory is about (name, description) above a passing mention in its body', async () => {
    const d = dir({
      'cache.md': ['Caching', 'prices are cached in Redis for 5 minutes', 'Invalidate on price-changed.'],
      'search.md': ['Search', 'product search runs on OpenSearch', 'Results may be cached by the CDN.'],
    })
    expect((await rank(d, 'cached prices are stale'))[0]).toBe('cache.md')
  })

  it('returns nothing when nothing fits, and drops weak matches far below the best', async () => {
    const d = dir({
      'role.md': ['Role', 'the user is a backend engineer', 'Explain frontend idioms when they come up.'],
      'freeze.md': ['Code freeze', 'merge freeze before the quarterly launch', 'Only fixes with a ticket.'],
      'release.md': ['Release process', 'releases are cut every Tuesday from main', 'Tag vX.Y.Z.'],
    })
    expect(await rank(d, 'explain quantum entanglement simply')).toEqual([])
    expect(await rank(d, 'what is the capital of Australia')).toEqual([])
    expect(await rank(d, 'when is the next release cut')).toEqual(['release.md'])
  })
})
