#!/usr/bin/env python3
"""Load HTML pages in headless Chromium and check that they read.

    python3 browser_check.py [--chromedriver PATH] [--chromium PATH]
                             [--width 1280] OUT_DIR PAGE.html...

Drives chromedriver over the W3C WebDriver HTTP protocol with the standard
library only (urllib). For each PAGE, loaded from its file:// URL at a
viewport of --width x 900 CSS px (device scale 1):
  - no console message of level SEVERE (errors: a failed load, a script
    error, a blocked fetch);
  - nothing fetched: no resource entries (performance timing), no script,
    link, iframe, object or embed element (the page is self-contained);
  - every <img> complete with a naturalWidth > 0, every inline <svg> with
    a non-zero size;
  - the document no wider than the viewport, and no table (or the scrolling
    box it is in), figure, svg or img wider than it (its right edge inside
    the viewport);
  - at least one heading; a page of more than three sections (h2) has a
    contents list (nav.toc) whose every link leads to a heading;
  - the width checks run with every collapsible table (<details>) open,
    so a closed table must fit too; the page is shown and screenshot with
    them as written (closed), and the counts give its height both ways.
Writes OUT_DIR/FOLDER-NAME.png (the full page at --width px) and
OUT_DIR/FOLDER-NAME-top.png (the first screen) for each page FOLDER/NAME.html, prints one line per problem
("not ok - NAME: ...") or "ok - NAME: ..." with what it counted, and exits
1 if any page has a problem, 2 when chromedriver cannot be started.
"""

import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

CHECKS = r"""
const vw = document.documentElement.clientWidth;
const out = {problems: [], counts: {}};
const where = (el) => {
  let h = el;
  while (h && !/^H[1-6]$/.test(h.tagName)) h = h.previousElementSibling || h.parentElement;
  return h ? '"' + h.textContent.slice(0, 80) + '"' : 'the top';
};
const doc = document.documentElement;
const closedHeight = doc.scrollHeight;
const folded = Array.from(document.querySelectorAll('details')).filter(d => !d.open);
folded.forEach(d => { d.open = true; });
if (doc.scrollWidth > vw + 1)
  out.problems.push('the document is ' + doc.scrollWidth + ' px wide (viewport ' + vw + ')');
const tables = document.querySelectorAll('table');
tables.forEach((t, i) => {
  // a table in a scrolling box (div.scroll) must have its box fit, not itself
  const r = (t.closest('div.scroll') || t).getBoundingClientRect();
  if (r.right > vw + 1 || r.left < -1)
    out.problems.push('table ' + (i + 1) + ' after ' + where(t) + ' is ' + Math.round(r.width) +
                      ' px wide, right edge at ' + Math.round(r.right) + ' (viewport ' + vw + ')');
});
const imgs = document.querySelectorAll('img');
imgs.forEach((img, i) => {
  if (!img.complete || img.naturalWidth === 0)
    out.problems.push('image ' + (i + 1) + ' (' + (img.alt || img.src.slice(0, 60)) + ') after ' +
                      where(img) + ' is missing or broken');
});
const svgs = Array.from(document.querySelectorAll('svg')).filter(s => !s.parentElement.closest('svg'));
svgs.forEach((s, i) => {
  const r = s.getBoundingClientRect();
  if (r.width < 1 || r.height < 1)
    out.problems.push('svg ' + (i + 1) + ' after ' + where(s) + ' has zero size');
});
document.querySelectorAll('figure, svg, img, pre').forEach((el) => {
  const r = el.getBoundingClientRect();
  if (r.right > vw + 1)
    out.problems.push(el.tagName.toLowerCase() + ' after ' + where(el) + ' is ' + Math.round(r.width) +
                      ' px wide (viewport ' + vw + ')');
});
const fetched = performance.getEntriesByType('resource').map(e => e.name);
if (fetched.length)
  out.problems.push('the page fetched ' + fetched.length + ' resource(s): ' + fetched.slice(0, 3).join(', '));
const active = document.querySelectorAll('script, link, iframe, object, embed, base, meta[http-equiv]');
if (active.length)
  out.problems.push('the page has ' + active.length + ' script/link/iframe/object/embed element(s)');
const headings = document.querySelectorAll('h1, h2, h3, h4, h5, h6');
if (!headings.length)
  out.problems.push('no heading');
const ids = new Set();
document.querySelectorAll('[id]').forEach(el => {
  if (ids.has(el.id)) out.problems.push('duplicate id "' + el.id + '"');
  ids.add(el.id);
});
document.querySelectorAll('a[href^="#"]').forEach(a => {
  if (!document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1))))
    out.problems.push('link ' + a.getAttribute('href') + ' goes nowhere');
});
const sections = document.querySelectorAll('h2');
const toc = document.querySelector('nav.toc');
if (sections.length > 3 && !toc)
  out.problems.push('no contents list (nav.toc) for ' + sections.length + ' sections');
const tocLinks = toc ? toc.querySelectorAll('a[href^="#"]') : [];
tocLinks.forEach(a => {
  const el = document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
  if (el && !/^H[1-6]$/.test(el.tagName))
    out.problems.push('contents link ' + a.getAttribute('href') + ' is not a heading');
});
const openHeight = doc.scrollHeight;
folded.forEach(d => { d.open = false; });
out.counts = {tables: tables.length, images: imgs.length, svgs: svgs.length,
              headings: headings.length, height: doc.scrollHeight, width: doc.scrollWidth,
              open_height: openHeight, contents: tocLinks.length, folded: folded.length};
return out;
"""


class WebDriver:
    def __init__(self, url):
        self.url = url.rstrip('/')
        self.session = None

    def call(self, method, path, body=None, timeout=120):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={'Content-Type': 'application/json'})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read().decode() or 'null')
        except urllib.error.HTTPError as e:
            text = e.read().decode(errors='replace')
            raise RuntimeError('%s %s: HTTP %d: %s' % (method, path, e.code, text[:500]))

    def s(self, method, path, body=None):
        return self.call(method, '/session/%s%s' % (self.session, path), body)['value']

    def start(self, chromium, width):
        opts = {'args': ['--headless=new', '--no-sandbox', '--disable-gpu',
                         '--disable-dev-shm-usage', '--disable-background-networking',
                         '--disable-extensions', '--no-first-run', '--hide-scrollbars',
                         '--force-device-scale-factor=1', '--window-size=%d,900' % width]}
        if chromium:
            opts['binary'] = chromium
        caps = {'capabilities': {'alwaysMatch': {
            'browserName': 'chrome', 'goog:chromeOptions': opts,
            'goog:loggingPrefs': {'browser': 'ALL'}}}}
        self.session = self.call('POST', '/session', caps)['value']['sessionId']

    def cdp(self, cmd, params=None):
        return self.s('POST', '/goog/cdp/execute', {'cmd': cmd, 'params': params or {}})

    def console(self):
        for path in ('/se/log', '/log'):
            try:
                return self.s('POST', path, {'type': 'browser'})
            except RuntimeError:
                continue
        return []

    def quit(self):
        if self.session:
            try:
                self.call('DELETE', '/session/%s' % self.session, timeout=30)
            except (RuntimeError, OSError):
                pass


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start_driver(path):
    port = free_port()
    log = open(os.devnull, 'w')
    proc = subprocess.Popen([path, '--port=%d' % port, '--allowed-ips=127.0.0.1'],
                            stdout=log, stderr=log)
    url = 'http://127.0.0.1:%d' % port
    for _ in range(100):
        try:
            with urllib.request.urlopen(url + '/status', timeout=2) as r:
                if json.loads(r.read().decode())['value'].get('ready'):
                    return proc, url
        except (OSError, ValueError, KeyError):
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    proc.wait()
    return None, None


def shot(wd, path, width, height):
    img = wd.cdp('Page.captureScreenshot', {
        'format': 'png', 'captureBeyondViewport': True, 'fromSurface': True,
        'clip': {'x': 0, 'y': 0, 'width': width, 'height': height, 'scale': 1}})
    with open(path, 'wb') as f:
        f.write(base64.b64decode(img['data']))


def check_page(wd, page, out_dir, width):
    folder = os.path.basename(os.path.dirname(os.path.abspath(page)))
    name = folder + '-' + os.path.splitext(os.path.basename(page))[0]
    label = folder + '/' + os.path.basename(page)
    wd.cdp('Emulation.setDeviceMetricsOverride',
           {'width': width, 'height': 900, 'deviceScaleFactor': 1, 'mobile': False})
    wd.console()  # drop what an earlier page left
    wd.s('POST', '/url', {'url': 'file://' + os.path.abspath(page)})
    wd.s('POST', '/execute/sync', {'script': 'return document.fonts.ready.then(() => 1);',
                                   'args': []})
    res = wd.s('POST', '/execute/sync', {'script': CHECKS, 'args': []})
    problems = list(res['problems'])
    for entry in wd.console():
        if entry.get('level') == 'SEVERE':
            problems.append('console error: %s' % entry.get('message', '')[:300])
    counts = res['counts']
    height = max(900, min(int(counts['height']), 120000))
    base = os.path.join(out_dir, name)
    shot(wd, base + '-top.png', width, 900)
    shot(wd, base + '.png', width, height)
    wd.cdp('Emulation.clearDeviceMetricsOverride')
    for p in problems:
        print('not ok - %s: %s' % (label, p))
    if not problems:
        print('ok - %s: %d headings, %d contents links, %d tables (%d collapsed), %d inline svg, '
              '%d img; %dx%d px (%d px with every table open); screenshot %s.png'
              % (label, counts['headings'], counts['contents'], counts['tables'], counts['folded'],
                 counts['svgs'], counts['images'], counts['width'], counts['height'],
                 counts['open_height'], base))
    return not problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--chromedriver', default='chromedriver')
    ap.add_argument('--chromium', default=None)
    ap.add_argument('--width', type=int, default=1280)
    ap.add_argument('out_dir')
    ap.add_argument('pages', nargs='+')
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    proc, url = start_driver(a.chromedriver)
    if not proc:
        print('not ok - browser: chromedriver %s did not start' % a.chromedriver)
        return 2
    wd = WebDriver(url)
    ok = True
    try:
        wd.start(a.chromium, a.width)
        for page in a.pages:
            ok &= check_page(wd, page, a.out_dir, a.width)
    except (RuntimeError, OSError, KeyError) as e:
        print('not ok - browser: %s' % e)
        ok = False
    finally:
        wd.quit()
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
