// tracekit viewer test driver: opens tracekit's SVG flame graphs in headless Chromium (from
// file://, as a person would open the file) and checks them against the folded stacks they
// were drawn from.
//
//   node tests/viewers/flamegraph.js [--shot DIR] SVG FOLDED [SEARCH] ...   (triples; SEARCH
//   "-" for none)
//
// For each SVG: no console error and no page error; every frame (a <g class="f">) stands for
// the call path of its ancestors and has that path's count in FOLDED (two counts per line: a
// differential graph, the second count), and every path a pixel wide or more has its frame;
// the paths narrower than a pixel under a frame are one grey frame (class "agg") with their
// count, the sum of theirs;
// clicking a frame zooms to it (it then spans the whole width, frames outside it are hidden),
// "Reset zoom" restores every frame; searching SEARCH highlights the frames whose names match
// it and shows "Matched: X%", X the share of the outermost matches. Prints one line per file
// ("ok ..." or "FAIL ...") and exits 1 on any failure.
'use strict';
const fs = require('fs');
const path = require('path');
const modules = process.env.TK_VIEWERS_MODULES || path.join(__dirname, 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

const args = process.argv.slice(2);
let shotDir = null;
if (args[0] === '--shot') { shotDir = args[1]; args.splice(0, 2); }

// The stacks as flamegraph.pl reads them: "STACK COUNT" (blanks: spaces or tabs; a CR before
// the newline and empty lines ignored); differential when every line has two counts, else a
// number ending the stack is part of its last frame's name ("thread 7 12").
function expected(folded) {
    const paths = new Map();
    let total = 0;
    const lines = fs.readFileSync(folded, 'utf8').split('\n').map(l => l.replace(/\r$/, ''))
        .filter(l => l.length);
    const num = '([0-9]+(?:\\.[0-9]*)?)';
    const two = new RegExp('^(.*[^ \\t;])[ \\t]+' + num + '[ \\t]+' + num + '$');
    const one = new RegExp('^(.*?)[ \\t]+' + num + '$');
    const diff = lines.every(l => two.test(l));
    for (const line of lines) {
        const m = diff ? two.exec(line) : one.exec(line);
        const v = +(diff ? m[3] : m[2]);
        const frames = m[1].replace(/[ \t]+$/, '').split(';');
        total += v;
        for (let i = 1; i <= frames.length; i++) {
            const k = frames.slice(0, i).join(';');
            paths.set(k, (paths.get(k) || 0) + v);
        }
    }
    return { paths, total };
}

function close(a, b) { return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b)); }

async function check(page, svg, folded, search) {
    const bad = [];
    const errors = [];
    page.removeAllListeners('console');
    page.removeAllListeners('pageerror');
    page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', e => errors.push(String(e)));
    await page.goto('file://' + path.resolve(svg));
    const frames = await page.evaluate(() => Array.from(document.querySelectorAll('g.f')).map(g =>
        ({ id: g.id, p: g.dataset.p || null, name: g.dataset.name, n: +g.dataset.n,
           agg: g.classList.contains('agg'), k: +(g.dataset.k || 0),
           w: +g.querySelector('rect').getAttribute('width') })));
    const want = expected(folded);
    const byId = new Map(frames.map(f => [f.id, f]));
    const pathOf = f => { const a = []; for (let g = f; g && g.p; g = byId.get(g.p)) a.unshift(g.name); return a.join(';'); };
    if (!frames.length || !close(frames[0].n, want.total))
        bad.push(`the root frame counts ${frames.length && frames[0].n}, the stacks ${want.total}`);
    const W = frames.length ? frames[0].w : 0;
    const px = v => v / want.total * W;
    // the paths narrower than a pixel, by their parent's path
    const narrow = new Map();
    for (const [k, v] of want.paths) {
        if (px(v) >= 1) continue;
        const parent = k.includes(';') ? k.slice(0, k.lastIndexOf(';')) : '';
        if (parent && px(want.paths.get(parent)) < 1) continue;
        const a = narrow.get(parent) || { n: 0, v: 0 };
        a.n++; a.v += v;
        narrow.set(parent, a);
    }
    let checked = 0, aggs = 0;
    for (const f of frames.slice(1)) {
        if (f.agg) {
            const p = byId.get(f.p), k = p === frames[0] ? '' : pathOf(p), a = narrow.get(k);
            if (!a || !close(a.v, f.n) || a.n !== f.k)
                bad.push(`the frame of ${f.k} narrow paths under "${k}" counts ${f.n}, the stacks ${a ? a.n + ' paths, ' + a.v : 'none'}`);
            aggs++;
            continue;
        }
        const k = pathOf(f), v = want.paths.get(k);
        if (v === undefined) bad.push(`frame ${k} is no path of the stacks`);
        else if (!close(v, f.n)) bad.push(`frame ${k}: ${f.n}, the stacks say ${v}`);
        else checked++;
        if (f.w < 1 - 1e-6) bad.push(`frame ${k} is ${f.w} px wide, drawn alone`);
    }
    // every path a pixel wide or more has its frame
    const drawn = new Set(frames.filter(f => !f.agg).slice(1).map(pathOf));
    for (const [k, v] of want.paths)
        if (px(v) >= 1 + 1e-6 && !drawn.has(k)) bad.push(`no frame for ${k} (${v})`);
    for (const [k, a] of narrow)
        if (px(a.v) >= 0.1 + 1e-6 && !frames.some(f => f.agg && (f.p === 'f0' ? '' : pathOf(byId.get(f.p))) === k))
            bad.push(`no frame for the ${a.n} narrow paths under "${k}"`);
    // zoom into the widest frame of depth 2 (or 1), then back
    const target = frames.filter(f => f.p && f.p !== 'f0').sort((a, b) => b.n - a.n)[0] ||
                   frames[1];
    if (target) {
        await page.click(`#${target.id}`);
        const z = await page.evaluate(id => {
            const g = document.getElementById(id);
            const shown = Array.from(document.querySelectorAll('g.f')).filter(f => f.style.display !== 'none').length;
            return { w: +g.querySelector('rect').getAttribute('width'), shown,
                     reset: document.getElementById('unzoom').style.display };
        }, target.id);
        if (Math.abs(z.w - W) > 0.5 || z.reset === 'none')
            bad.push(`zoom to ${target.name}: width ${z.w}, not ${W}`);
        await page.click('#unzoom');
        const back = await page.evaluate(() => Array.from(document.querySelectorAll('g.f')).filter(f => f.style.display === 'none').length);
        if (back) bad.push(`after Reset zoom ${back} frames stay hidden`);
    }
    if (search && search !== '-') {
        page.once('dialog', d => d.accept(search));
        await page.click('#search');
        const m = await page.evaluate(() => ({ text: document.getElementById('matched').textContent,
            hits: document.querySelectorAll('g.match').length }));
        let sum = 0;
        const rx = new RegExp(search);
        for (const [k, v] of want.paths) {
            if (!drawn.has(k)) continue; /* searched: the frames drawn */
            const names = k.split(';');
            if (rx.test(names[names.length - 1]) && !names.slice(0, -1).some(n => rx.test(n))) sum += v;
        }
        const pct = (100 * sum / want.total).toFixed(1) + '%';
        if (m.text !== 'Matched: ' + pct || !m.hits) bad.push(`search ${search}: "${m.text}", expected ${pct}`);
    }
    if (shotDir) await page.screenshot({ path: path.join(shotDir, path.basename(svg) + '.png') });
    return { bad: bad.concat(errors.map(e => 'console: ' + e)), checked, frames: frames.length, aggs };
}

(async () => {
    const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: { width: 1300, height: 700 } });
    let failed = 0;
    for (let i = 0; i + 1 < args.length; i += 3) {
        const [svg, folded, search] = [args[i], args[i + 1], args[i + 2]];
        let r;
        try { r = await check(page, svg, folded, search); } catch (e) { r = { bad: [String(e)], checked: 0, frames: 0 }; }
        if (r.bad.length) {
            failed++;
            console.log(`FAIL ${svg}:`);
            for (const b of r.bad.slice(0, 10)) console.log('    ' + b);
        } else {
            console.log(`ok ${svg}: ${r.frames} frames, ${r.checked} paths equal the stacks, ` +
                        `${r.aggs} of paths narrower than a pixel`);
        }
    }
    await browser.close();
    process.exit(failed ? 1 : 0);
})();
