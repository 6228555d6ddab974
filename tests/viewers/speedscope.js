// tracekit viewer test driver: opens profiles in speedscope (the npm package's static build)
// inside headless Chromium (Debian's /usr/bin/chromium driven by playwright-core) and prints,
// for each file, one JSON line with what speedscope made of it.
//
//   node tests/viewers/speedscope.js [--shot DIR] FILE...
//
// One browser and one page load all files (playwright starts Chromium headless with a fresh
// profile folder of its own). For each file: the page hands it to speedscope's file input
// under its own base name (speedscope picks its importer partly by the name), waits until the title reads "NAME - speedscope" (loaded), a dialog appears (rejected)
// or the page reports an error, then presses speedscope's Export button and reads the file it
// downloads: speedscope's own JSON of the profiles it imported. From that the script adds up,
// per profile (thread) and frame name, the total (inclusive: once per sample or outermost
// open interval) and self weights that speedscope's Sandwich view shows.
// Output line: {"file", "state": loaded|rejected|error|timeout, "importer", "errors": [...],
//               "profiles": [{"name", "unit", "total", "frames": {NAME: [total, self]}}]}
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const here = __dirname;
const modules = process.env.TK_VIEWERS_MODULES || path.join(here, 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));
const release = path.join(modules, 'speedscope', 'dist', 'release');

const args = process.argv.slice(2);
let shotDir = null;
const files = [];
for (let i = 0; i < args.length; i++) {
    if (args[i] === '--shot') shotDir = args[++i];
    else files.push(args[i]);
}
if (!files.length) {
    console.error('usage: speedscope.js [--shot DIR] FILE...');
    process.exit(2);
}

const types = {
    '.html': 'text/html', '.js': 'application/javascript', '.css': 'text/css',
    '.wasm': 'application/wasm', '.png': 'image/png', '.woff2': 'font/woff2',
};

// The static build, on 127.0.0.1 (speedscope's workers and its wasm need http, not file://).
function serve(req, res) {
    const url = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
    const p = path.join(release, path.normalize(url === '/' ? '/index.html' : url));
    fs.readFile(p, (err, data) => {
        if (err) {
            res.writeHead(404);
            res.end();
            return;
        }
        res.writeHead(200, { 'Content-Type': types[path.extname(p)] || 'application/octet-stream' });
        res.end(data);
    });
}

// Inclusive and self weights per frame name of one exported profile.
function sampledTotals(prof, frames, acc) {
    prof.samples.forEach((stack, i) => {
        const w = prof.weights[i];
        const seen = new Set();
        stack.forEach((fi, depth) => {
            const name = frames[fi].name;
            const a = acc[name] || (acc[name] = [0, 0]);
            if (!seen.has(name)) { a[0] += w; seen.add(name); }
            if (depth === stack.length - 1) a[1] += w;
        });
    });
}

function eventedTotals(prof, frames, acc) {
    const stack = [];     // [frame name, open time]
    const open = {};      // name -> how many times it is on the stack
    let last = prof.startValue;
    for (const e of prof.events) {
        if (stack.length) {
            const top = stack[stack.length - 1][0];
            (acc[top] || (acc[top] = [0, 0]))[1] += e.at - last;
        }
        last = e.at;
        const name = frames[e.frame].name;
        if (e.type === 'O') {
            stack.push([name, e.at]);
            open[name] = (open[name] || 0) + 1;
        } else {
            const [n, t] = stack.pop();
            if (--open[n] === 0) (acc[n] || (acc[n] = [0, 0]))[0] += e.at - t;
        }
    }
}

function summarise(doc) {
    const frames = doc.shared.frames;
    return doc.profiles.map(prof => {
        const acc = {};
        if (prof.type === 'sampled') sampledTotals(prof, frames, acc);
        else eventedTotals(prof, frames, acc);
        for (const k of Object.keys(acc)) acc[k] = acc[k].map(v => Math.round(v * 1000) / 1000);
        return { name: prof.name, unit: prof.unit, total: prof.endValue - prof.startValue,
                 frames: acc };
    });
}

async function waitLoaded(page, r, base) {
    const t0 = Date.now();
    while (Date.now() - t0 < 30000) {
        const title = await page.title();
        if (title === base + ' - speedscope') return 'loaded';
        if (r.dialogs.length) return 'rejected';
        const text = await page.evaluate(() => document.body ? document.body.innerText : '');
        if (/Something went wrong|Unrecognized format/.test(text)) {
            r.errors.push('page: ' + text.replace(/\s+/g, ' ').slice(0, 300));
            return 'error';
        }
        if (r.errors.length) return 'error';
        await page.waitForTimeout(100);
    }
    return 'timeout';
}

// Loads files[i] into the page through speedscope's own file input (the start page's, or the
// one its Import button opens), as a person would, so one page loads every file.
async function one(page, r, i) {
    const file = files[i];
    const base = path.basename(file);
    await page.evaluate(() => { document.title = ''; });
    if (await page.$('input[type=file]')) {
        await page.setInputFiles('input[type=file]', file);
    } else {
        const [chooser] = await Promise.all([
            page.waitForEvent('filechooser', { timeout: 10000 }),
            page.getByText('Import', { exact: false }).first().click(),
        ]);
        await chooser.setFiles(file);
    }
    r.state = await waitLoaded(page, r, base);
    if (r.state !== 'loaded')
        return;
    const [dl] = await Promise.all([
        page.waitForEvent('download', { timeout: 15000 }),
        page.getByText('Export', { exact: false }).first().click(),
    ]);
    const doc = JSON.parse(fs.readFileSync(await dl.path(), 'utf8'));
    r.profiles = summarise(doc);
    if (shotDir)
        await page.screenshot({ path: path.join(shotDir, base + '.png') });
}

async function newPage(browser, port, r) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 800 },
                                         acceptDownloads: true });
    page.on('dialog', d => { r.cur.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    page.on('pageerror', e => r.cur.errors.push('pageerror: ' + String(e).slice(0, 300)));
    page.on('console', m => {
        const t = m.text();
        if (/^Importing (as|from)/.test(t)) r.cur.importer = t.split('\n')[0];
        else if ((m.type() === 'error' || /^Failed to load format/.test(t)) &&
                 !/WebGL|GPU|favicon/.test(t))
            r.cur.errors.push(t.split('\n').slice(0, 2).join(' | ').slice(0, 300));
    });
    await page.goto(`http://127.0.0.1:${port}/index.html`);
    await page.waitForSelector('input[type=file]', { state: 'attached', timeout: 30000 });
    return page;
}

(async () => {
    const server = http.createServer(serve);
    await new Promise(ok => server.listen(0, '127.0.0.1', ok));
    const port = server.address().port;
    const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update',
               '--disable-sync', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    });
    let status = 0;
    const holder = { cur: null };
    let page = null;
    try {
        for (let i = 0; i < files.length; i++) {
            const r = { file: files[i], state: 'timeout', importer: null, errors: [],
                        dialogs: [], profiles: [] };
            holder.cur = r;
            const t0 = Date.now();
            try {
                if (!page) page = await newPage(browser, port, holder);
                await one(page, r, i);
            } catch (e) {
                r.state = 'harness-error';
                r.errors.push(String(e).slice(0, 300));
            }
            if (r.state !== 'loaded' && page) {
                await page.close();    // a page that failed starts over
                page = null;
            }
            r.seconds = (Date.now() - t0) / 1000;
            r.errors = r.errors.concat(r.dialogs.map(d => 'dialog: ' + d));
            delete r.dialogs;
            process.stdout.write(JSON.stringify(r) + '\n');
        }
    } catch (e) {
        console.error('speedscope.js: ' + e);
        status = 2;
    }
    await browser.close();
    server.close();
    process.exit(status);
})();
