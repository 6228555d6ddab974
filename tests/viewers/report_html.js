// tracekit viewer test driver: opens `report --format html` pages in headless Chromium from
// file:// and checks what they show against `report --format json` of the same input.
//
//   node tests/viewers/report_html.js [--shot DIR] PAGE JSON [PAGE JSON ...]
//
// For each page: no console error, no page error and no request leaving file:/data: URLs;
// the summary shows every scalar member of JSON; each array of objects of JSON, nested ones
// too (a DCFG's processes' loop tables: key "processes.0.loop_table"), is a table whose rows,
// as drawn (first screen, then scrolled to the middle and to the end), show the JSON's rows
// (numbers as JSON writes them, integers beyond 2^53 with all their digits); clicking a
// numeric column's header puts its largest value first; the flame graph (when the page has
// one) has frames; the timeline (when it has one) is shown; each loop of a DCFG or DCFG-Trace
// report ("loop" of loop_table, "head" of hot_loops rows) and each function of a CSI report
// has a graph drawn by Graphviz (its head block, or the function's blocks, among its nodes)
// whose caption shows the report's rows of it; a CSI function lists its paths (as many as
// the report counts, up to 500), and clicking a path highlights its blocks and the edges
// between them, and nothing else. Prints "ok ..." or "FAIL ..." per page; exits 1 on a
// failure.
'use strict';
const fs = require('fs');
const path = require('path');
const modules = process.env.TK_VIEWERS_MODULES || path.join(__dirname, 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

const args = process.argv.slice(2);
let shotDir = null;
if (args[0] === '--shot') { shotDir = args[1]; args.splice(0, 2); }

function fmt(v) {
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(+v.toPrecision(10));
    if (v === null || v === undefined) return '';
    // what the page shows of an object or an array: its members, never its JSON
    if (Array.isArray(v)) return v.map(fmt).join(', ');
    if (typeof v === 'object') return Object.keys(v).map(k => k + ' ' + fmt(v[k])).join(', ');
    return String(v);
}

const isTable = v => Array.isArray(v) && v.length > 0 && typeof v[0] === 'object' && v[0] !== null;

// text that is JSON of an object or an array, not something a reader reads
const looksJSON = t => /^\s*(\{\s*"|\[\s*[[{"0-9])/.test(t);

function cellsOf(row, events) {
    const out = [];
    for (const k of Object.keys(row)) {
        const v = row[k];
        if (isTable(v)) continue;
        if (Array.isArray(v) && v.every(x => typeof x === 'number')) out.push(...v.map(fmt));
        else out.push(fmt(v));
    }
    return out;
}

// JSON with integers beyond 2^53 as strings of their digits (what the page shows)
function parseExact(text) {
    let out = '', i = 0, inStr = false;
    while (i < text.length) {
        const c = text[i];
        if (inStr) {
            out += c;
            if (c === '\\') { out += text[i + 1]; i += 2; continue; }
            if (c === '"') inStr = false;
            i++;
        } else if (c === '"') {
            inStr = true; out += c; i++;
        } else if (/[-0-9]/.test(c)) {
            let j = i + 1;
            while (j < text.length && /[0-9.eE+-]/.test(text[j])) j++;
            const lit = text.slice(i, j);
            out += /^-?[0-9]+$/.test(lit) && !Number.isSafeInteger(+lit) ? '"' + lit + '"' : lit;
            i = j;
        } else { out += c; i++; }
    }
    return JSON.parse(out);
}

function rowName(r, i) {
    const k = Object.keys(r).find(k => r[k] === null || typeof r[k] !== 'object');
    return k ? k + ' ' + fmt(r[k]) : '#' + i;
}

// the page's tables: every array of objects, nested ones under "KEY.INDEX.MEMBER"
function tablesOf(obj, prefix, out) {
    for (const k of Object.keys(obj)) {
        if (!isTable(obj[k])) continue;
        const key = prefix ? prefix + '.' + k : k;
        out.push({ key, rows: obj[k] });
        obj[k].forEach((r, i) => { if (Object.values(r).some(isTable)) tablesOf(r, key + '.' + i, out); });
    }
    return out;
}

async function visibleRows(page, key) {
    return page.evaluate(k => {
        const sec = document.querySelector(`section.table[data-key="${k}"]`);
        return Array.from(sec.querySelectorAll('.scroll .row')).map(r =>
            ({ i: +r.dataset.index, cells: Array.from(r.children).map(c => c.textContent) }));
    }, key);
}

// a row's cells under the page's columns (a member the row lacks: an empty cell)
function cellsUnder(row, cols, events) {
    const by = {};
    for (const k of Object.keys(row)) {
        const v = row[k];
        if (isTable(v)) continue;
        if (Array.isArray(v) && v.every(x => typeof x === 'number'))
            v.forEach((x, i) => { by[k + ' ' + (events.length === v.length ? events[i] : i)] = fmt(x); });
        else by[k] = fmt(v);
    }
    return cols.map(c => (c in by ? by[c] : ''));
}

async function checkTable(page, key, rows, events, bad) {
    const n = rows.length;
    const heads = await page.evaluate(k => Array.from(document.querySelectorAll(
        `section.table[data-key="${k}"] .head .cell`)).map(c => c.textContent), key);
    for (const at of [0, Math.floor(n / 2), n - 1]) {
        await page.evaluate(([k, i]) => {
            const box = document.querySelector(`section.table[data-key="${k}"] .scroll`);
            box.scrollTop = i * 22;
            box.dispatchEvent(new Event('scroll'));
        }, [key, at]);
        const shown = await visibleRows(page, key);
        if (!shown.some(r => r.i === at)) bad.push(`${key}: row ${at} not drawn at its place`);
        for (const r of shown)
            if (r.cells.some(looksJSON)) bad.push(`${key} row ${r.i}: JSON shown: ${r.cells.join(' | ')}`);
        for (const r of shown) {
            const want = cellsUnder(rows[r.i], heads, events);
            if (JSON.stringify(r.cells) !== JSON.stringify(want))
                bad.push(`${key} row ${r.i}: shows ${r.cells.join(' | ')}, report: ${want.join(' | ')}`);
        }
        if (bad.length > 5) return;
    }
    // sort by the first numeric column: its largest value first
    const col = await page.evaluate(k => {
        const sec = document.querySelector(`section.table[data-key="${k}"]`);
        return Array.from(sec.querySelectorAll('.head .cell')).map(c => c.textContent);
    }, key);
    const values = rows.map(r => cellsUnder(r, col, events));
    const num = col.findIndex((c, j) => values.every(v => v[j] !== '' && !isNaN(+v[j])));
    if (num >= 0) {
        await page.click(`section.table[data-key="${key}"] .head .cell[data-col="${num}"]`);
        const first = (await visibleRows(page, key)).find(r => r.i === 0);
        const max = Math.max(...values.map(v => +v[num]));
        if (!first || +first.cells[num] !== max)
            bad.push(`${key}: sorted by ${col[num]}, the first row shows ${first && first.cells[num]}, not ${max}`);
    }
}

// The report's rows of each graph: loops by head, CSI functions by label.
function graphRows(tabs) {
    const by = new Map();
    const add = (k, t, i) => { if (!by.has(k)) by.set(k, []); by.get(k).push({ t, i }); };
    for (const t of tabs) t.rows.forEach((r, i) => {
        if (/(^|[.])loop_table$/.test(t.key) && r.loop !== undefined) add('loop ' + fmt(r.loop), t, i);
        if (/(^|[.])hot_loops$/.test(t.key) && r.head !== undefined) add('loop ' + fmt(r.head), t, i);
        if (t.key === 'rows' && r['function'] !== undefined) add('function ' + fmt(r['function']), t, i);
    });
    return by;
}

async function checkGraphs(page, tabs, bad) {
    const want = graphRows(tabs);
    if (!want.size) return null;
    const figs = await page.evaluate(() => Array.from(document.querySelectorAll('figure.graph')).map(f => ({
        kind: f.dataset.kind, key: f.dataset.key,
        nodes: Array.from(f.querySelectorAll('g.node')).map(g => ({
            name: g.querySelector('title').textContent,
            label: (g.querySelector('text') || { textContent: '' }).textContent })),
        fields: Array.from(f.querySelectorAll('figcaption .fields')).map(d => ({
            table: d.dataset.table, index: +d.dataset.index,
            cells: Object.fromEntries(Array.from(d.querySelectorAll('span[data-key]')).map(s =>
                [s.dataset.key, s.textContent.slice(s.querySelector('b').textContent.length)])) })),
        paths: Array.from(f.querySelectorAll('tr.path')).map(tr => +tr.dataset.id),
        visible: !f.closest('section').hidden })));
    const byKey = new Map(figs.map(f => [f.kind + ' ' + f.key, f]));
    let clicked = 0;
    for (const [k, rows] of Array.from(want).slice(0, 50)) {
        const f = byKey.get(k);
        if (!f) { bad.push(`${k}: no graph`); continue; }
        if (!f.visible) bad.push(`${k}: the graphs are hidden`);
        if (!f.nodes.length) { bad.push(`${k}: the graph has no node (Graphviz did not draw it)`); continue; }
        for (const { t, i } of rows) {
            const shown = f.fields.find(x => x.table === t.key && x.index === i);
            if (!shown) { bad.push(`${k}: the caption lacks ${t.key} row ${i}`); continue; }
            for (const [c, v] of Object.entries(t.rows[i]))
                if (!isTable(v) && shown.cells[c] !== fmt(v))
                    bad.push(`${k}: caption ${c} ${shown.cells[c]}, report ${fmt(v)}`);
        }
        if (f.kind === 'loop') {
            if (!f.nodes.some(n => n.name === 'node' + f.key))
                bad.push(`${k}: the loop's head node${f.key} is not drawn`);
            continue;
        }
        const row = rows[0].t.rows[rows[0].i];
        const count = Math.min(Number(row.paths), 500);
        if (f.paths.length !== count) bad.push(`${k}: ${f.paths.length} paths listed, the report counts ${row.paths}`);
        if (f.nodes.length !== row.blocks) bad.push(`${k}: ${f.nodes.length} nodes, the report counts ${row.blocks} blocks`);
        clicked += await clickPaths(page, f, k, bad);
    }
    return { figures: figs.length, paths: clicked };
}

// Click a function's first paths: the highlighted nodes are the path's blocks (and EXIT when
// it ends there), the highlighted edges join consecutive ones.
async function clickPaths(page, f, k, bad) {
    let n = 0;
    for (const id of f.paths.slice(0, 12)) {
        const got = await page.evaluate(([key, id]) => {
            const fig = Array.from(document.querySelectorAll('figure.graph')).find(x => x.dataset.key === key);
            const tr = fig.querySelector(`tr.path[data-id="${id}"]`);
            tr.click();
            const label = g => g.querySelector('text').textContent;
            const res = { blocks: tr.children[1].textContent, end: tr.children[3].textContent,
                nodes: Array.from(fig.querySelectorAll('g.node.hl')).map(g => label(g).split(' ')[0]),
                exit: Array.from(fig.querySelectorAll('g.node.hl')).some(g => / EXIT$/.test(label(g))),
                edges: fig.querySelectorAll('g.edge.hl').length };
            tr.click();
            res.after = fig.querySelectorAll('.hl').length;
            return res;
        }, [f.key, id]);
        const want = got.blocks.split(' ');
        const nodes = got.nodes.filter(x => !(got.exit && f.nodes.some(m => / EXIT$/.test(m.label) && m.label.split(' ')[0] === x)));
        const seq = want.length + (got.end === 'EXIT' ? 1 : 0);
        if (JSON.stringify([...new Set(nodes)].sort()) !== JSON.stringify([...new Set(want)].sort()) ||
            (got.end === 'EXIT') !== got.exit || got.edges !== seq - 1 || got.after)
            bad.push(`${k} path ${id}: highlighted ${got.nodes.join(' ')} (${got.edges} edges), the path ${got.blocks} .. ${got.end}`);
        n++;
    }
    return n;
}

async function check(browser, pagePath, jsonPath) {
    const bad = [];
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('console', m => { if (m.type() === 'error') bad.push('console: ' + m.text()); });
    page.on('pageerror', e => bad.push('page error: ' + e));
    page.on('request', r => { if (!/^(file|data):/.test(r.url())) bad.push('request: ' + r.url()); });
    const t0 = Date.now();
    await page.goto('file://' + path.resolve(pagePath));
    await page.waitForTimeout(300);
    const rep = parseExact(fs.readFileSync(jsonPath, 'utf8'));
    const events = Array.isArray(rep.events) ? rep.events : [];
    const summary = await page.evaluate(() => Object.fromEntries(Array.from(
        document.querySelectorAll('#summary-list dd')).map(d => [d.dataset.key, d.textContent])));
    const tabs = tablesOf(rep, '', []);
    const shownTables = await page.evaluate(() => window.tkReport.tables);
    if (JSON.stringify(shownTables) !== JSON.stringify(tabs.map(t => t.key)))
        bad.push(`tables ${shownTables.join(', ')}, the report's ${tabs.map(t => t.key).join(', ')}`);
    for (const t of tabs) await checkTable(page, t.key, t.rows, events, bad);
    const tables = tabs.length;
    for (const k of Object.keys(rep)) {
        const v = rep[k];
        if (isTable(v)) continue;
        if (!(k in summary)) bad.push(`summary: no ${k}`);
        else if (looksJSON(summary[k])) bad.push(`summary ${k}: JSON shown: ${summary[k]}`);
        else if (!Array.isArray(v) && summary[k] !== fmt(v))
            bad.push(`summary ${k}: shows ${summary[k]}, report ${fmt(v)}`);
    }
    // CSI coverage reports list functions too, but have no CFG to draw ("kind": CC, FC, BBC)
    const graphs = /^(CC|FC|BBC)$/.test(rep.kind) ? null : await checkGraphs(page, tabs, bad);
    const flame = page.frames().find(f => f.url().startsWith('data:image/svg'));
    let frames = 0, aggs = 0;
    if (await page.$('#flame')) {
        [frames, aggs] = flame ? await flame.evaluate(() => [document.querySelectorAll('g.f').length,
                                                             document.querySelectorAll('g.agg').length]) : [0, 0];
        if (!frames) bad.push('the flame graph shows no frame');
    }
    const timeline = await page.evaluate(() => !document.getElementById('timeline').hidden);
    if (await page.$('#trace') && !timeline) bad.push('the timeline is not shown');
    // a lane per thread, every call of the report in one
    const lanes = timeline ? await page.evaluate(() => window.tkTimeline) : [];
    const t = rep.totals;
    if (t && typeof t.threads === 'number' && t.enters !== undefined) {
        const calls = lanes.reduce((n, l) => n + l.calls, 0);
        if (lanes.length !== t.threads) bad.push(`timeline: ${lanes.length} lanes, ${t.threads} threads`);
        if (!t.open_at_end && !t.unwound && !t.unmatched_exits && calls !== t.enters)
            bad.push(`timeline: ${calls} calls drawn, the report counts ${t.enters}`);
    }
    if (rep.format === 'dcfg-trace' && timeline && lanes.length !== rep.threads.length)
        bad.push(`timeline: ${lanes.length} lanes, ${rep.threads.length} threads`);
    if (shotDir) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(shotDir, path.basename(pagePath) + '.png'),
                                fullPage: true });
    }
    await page.close();
    return { bad, tables, frames, aggs, timeline: timeline && lanes.length, graphs,
             seconds: (Date.now() - t0) / 1000 };
}

(async () => {
    const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    let failed = 0;
    for (let i = 0; i + 1 < args.length; i += 2) {
        let r;
        try { r = await check(browser, args[i], args[i + 1]); } catch (e) { r = { bad: [String(e)] }; }
        if (r.bad.length) {
            failed++;
            console.log(`FAIL ${args[i]}:`);
            for (const b of r.bad.slice(0, 10)) console.log('    ' + b);
        } else {
            console.log(`ok ${args[i]}: ${r.tables} tables, ${r.frames} flame frames (${r.aggs} of ` +
                        `paths narrower than a pixel)` +
                        (r.timeline ? `, a timeline of ${r.timeline} threads` : '') +
                        (r.graphs ? `, ${r.graphs.figures} graphs, ${r.graphs.paths} paths clicked` : '') +
                        `; checked in ${r.seconds.toFixed(1)} s`);
        }
    }
    await browser.close();
    process.exit(failed ? 1 : 0);
})();
