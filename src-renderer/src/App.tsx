export function App() {
  return (
    <main className="shell">
      <header className="topbar">
        <span className="brand">Memdir</span>
      </header>
      <section className="empty">
        <h1>Your agent&rsquo;s memory, in one place</h1>
        <p>
          Memdir reads the same memory directory Claude Code writes (<code>~/.claude/projects/…/memory/</code>
          ). Use the <code>memdir</code> CLI to inspect it while the workspace view is being built.
        </p>
      </section>
    </main>
  )
}
