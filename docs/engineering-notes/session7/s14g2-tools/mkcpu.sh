cd /work/wt/s14g2 && rm -rf bench-out/cpu-dist && cp -r bench-out/new-dist bench-out/cpu-dist && cat > bench-out/cpu-dist/lib/util/timing.js <<'EOF'
const enabled = process.env.MEMLINT_TIMING === '1';
let last = enabled ? process.cpuUsage() : null;
const t0 = last;
export function mark(phase) {
    if (!enabled) return;
    const d = process.cpuUsage(last); const tot = process.cpuUsage(t0);
    process.stderr.write(`cpu: ${phase.padEnd(22)} ${((d.user + d.system) / 1000).toFixed(1).padStart(7)} ms (total ${((tot.user+tot.system)/1000).toFixed(1)})\n`);
    last = process.cpuUsage();
}
EOF
python3 - <<'EOF'
p='/work/wt/s14g2/bench-out/cpu-dist/lib/guard/guard.js'
s=open(p).read()
s=s.replace("    const found = discover(root,","    mark('before discover');\n    const found = discover(root,",1)
s=s.replace("    if ((config.kind ?? detectKind(found.markdown)) === 'hermes')","    mark('discover+listings');\n    const kk = (config.kind ?? detectKind(found.markdown)); mark('detectKind');\n    if (kk === 'hermes')",1)
s=s.replace("    const problems = runRules(draftVault","    mark('vaultFromText');\n    const problems = runRules(draftVault",1)
s=s.replace("        const view = toRead.has(n) ? claims.view(n.path) : null;\n        if (view) {\n            const f = noteConflicts(draftClauses(), view, 1)[0];","""        let c0 = process.cpuUsage();
        const view = toRead.has(n) ? claims.view(n.path) : null;
        let c1 = process.cpuUsage(c0); globalThis.__v = (globalThis.__v ?? 0) + c1.user + c1.system;
        if (view) {
            draftClauses();
            c0 = process.cpuUsage();
            const f = noteConflicts(draftClauses(), view, 1)[0];
            c1 = process.cpuUsage(c0); globalThis.__c = (globalThis.__c ?? 0) + c1.user + c1.system; globalThis.__n = (globalThis.__n ?? 0) + 1;""",1)
s=s.replace("    claims.save();","    mark('compare loop'); process.stderr.write(`cpu: views ${((globalThis.__v??0)/1000).toFixed(1)} conflicts ${((globalThis.__c??0)/1000).toFixed(1)} n ${globalThis.__n} scored ${scored.length}\\n`);\n    claims.save();",1)
s=s.replace("        : withIndex(result, guardNoteIndexLine(root, config, target, draft, name, draftNote.meta.description ?? null));","        : ((x) => (mark('index line'), x))(withIndex(result, guardNoteIndexLine(root, config, target, draft, name, draftNote.meta.description ?? null)));",1)
open(p,'w').write(s)
EOF
