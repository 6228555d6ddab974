// tracekit viewer test driver: opens `report --format html` pages in headless Chromium from
// file:// and checks what they show against `report --format json` of the same input.
//
//   node tests/viewers/report_html.js [--shot DIR] PAGE JSON [PAGE JSON ...]
//
// For each page: no console error, no page error and no request leaving file:/data: URLs;
// the summary shows every scalar member of JSON; each array of objects of JSON is a table
// whose rows, as drawn (first screen, then scrolled to the middle and to the end), show the
// JSON's rows (numbers as JSON writes them); clicking a numeric column's header puts its
// largest value first; the flame graph (when the page has one) has frames; the timeline
// (when it has one) is shown. Prints "ok ..." or "FAIL ..." per page; exits 1 on a failure.
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
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
}

function cellsOf(row, events) {
    const out = [];
    for (const k of Object.keys(row)) {
        const v = row[k];
        if (Array.isArray(v) && v.every(x => typeof x === 'number')) out.push(...v.map(fmt));
        else out.push(fmt(v));
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

async function checkTable(page, key, rows, events, bad) {
    const n = rows.length;
    for (const at of [0, Math.floor(n / 2), n - 1]) {
        await page.evaluate(([k, i]) => {
            const box = document.querySelector(`section.table[data-key="${k}"] .scroll`);
            box.scrollTop = i * 22;
            box.dispatchEvent(new Event('scroll'));
        }, [key, at]);
        const shown = await visibleRows(page, key);
        if (!shown.some(r => r.i === at)) bad.push(`${key}: row ${at} not drawn at its place`);
        for (const r of shown) {
            const want = cellsOf(rows[r.i], events);
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
    const values = rows.map(r => cellsOf(r, events));
    const num = col.findIndex((c, j) => values.every(v => v[j] !== '' && !isNaN(+v[j])));
    if (num >= 0) {
        await page.click(`section.table[data-key="${key}"] .head .cell[data-col="${num}"]`);
        const first = (await visibleRows(page, key)).find(r => r.i === 0);
        const max = Math.max(...values.map(v => +v[num]));
        if (!first || +first.cells[num] !== max)
            bad.push(`${key}: sorted by ${col[num]}, the first row shows ${first && first.cells[num]}, not ${max}`);
    }
}

async function check(browser, pagePath, jsonPath) {
    const bad = [];
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('console', m => { if (m.type() === 'error') bad.push('console: ' + m.text()); });
    page.on('pageerror', e => bad.push('page error: ' + e));
    page.on('request', r => { if (!/^(file|data):/.test(r.url())) bad.push('request: ' + r.url()); });
    await page.goto('file://' + path.resolve(pagePath));
    await page.waitForTimeout(300);
    const rep = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
    const events = Array.isArray(rep.events) ? rep.events : [];
    const summary = await page.evaluate(() => Object.fromEntries(Array.from(
        document.querySelectorAll('#summary-list dd')).map(d => [d.dataset.key, d.textContent])));
    let tables = 0;
    for (const k of Object.keys(rep)) {
        const v = rep[k];
        if (Array.isArray(v) && v.length && typeof v[0] === 'object' && v[0] !== null) {
            tables++;
            await checkTable(page, k, v, events, bad);
        } else if (!(k in summary)) {
            bad.push(`summary: no ${k}`);
        } else if (!Array.isArray(v) && summary[k] !== fmt(v)) {
            bad.push(`summary ${k}: shows ${summary[k]}, report ${fmt(v)}`);
        }
    }
    const flame = page.frames().find(f => f.url().startsWith('data:image/svg'));
    let frames = 0;
    if (await page.$('#flame')) {
        frames = flame ? await flame.evaluate(() => document.querySelectorAll('g.f').length) : 0;
        if (!frames) bad.push('the flame graph shows no frame');
    }
    const timeline = await page.evaluate(() => !document.getElementById('timeline').hidden);
    if (await page.$('#trace') && !timeline) bad.push('the timeline is not shown');
    if (shotDir) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(shotDir, path.basename(pagePath) + '.png'),
                                fullPage: true });
    }
    await page.close();
    return { bad, tables, frames, timeline };
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
            console.log(`ok ${args[i]}: ${r.tables} tables, ${r.frames} flame frames` +
                        (r.timeline ? ', a timeline' : ''));
        }
    }
    await browser.close();
    process.exit(failed ? 1 : 0);
})();
