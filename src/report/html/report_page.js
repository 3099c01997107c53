// report.html's script. It draws the operator x dtype matrix, the rule coverage table, the ULP
// histograms and error plots, the test point table, the benchmark trends and the time by stage from
// the page data embedded in #report-data (its layout: src/report/html_page_data.h), and filters
// them together with the static failure list. Every string may come from a case file or a provider,
// so text goes into the page through textContent and attribute values only, never as markup. The
// filters live in the URL fragment (#op=...&dtype=...&status=...&q=...), so a link, a matrix cell
// or a headless browser can open the page filtered.
(function () {
  'use strict';

  const started = performance.now();
  const SVG_NS = 'http://www.w3.org/2000/svg';  // a namespace name, never fetched
  const DTYPE_ORDER = ['float16', 'bfloat16', 'float32', 'float64', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool'];
  const VERDICT_TEXT = {'passed': '✔ passed', 'failed': '✘ failed', 'error': '⚠ error', 'not-provided': '– not provided'};
  const ULP_BUCKETS = ['0', '1', '2', '3-4', '5-8', '9-16', '>16'];
  const POINTS_PAGE = 500;      // test point rows added per "Show more"
  const SCATTER_POINTS = 300;   // the worst outputs drawn per operator and dtype

  // ---- Small DOM helpers: attributes and text only. ----
  function element(tag, attributes, text) {
    const node = document.createElement(tag);
    setAttributes(node, attributes);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svgElement(tag, attributes, text) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttributes(node, attributes);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function setAttributes(node, attributes) {
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }
  // report.json writes NaN and infinities as strings.
  function number(value) {
    if (typeof value === 'number') return value;
    if (value === 'nan') return NaN;
    if (value === 'inf') return Infinity;
    if (value === '-inf') return -Infinity;
    return value === null || value === undefined ? NaN : Number(value);
  }
  function formatNumber(value) {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
    if (Number.isInteger(value) && Math.abs(value) < 1e6) return String(value);
    return value.toPrecision(4);
  }
  function compareDtypes(a, b) {
    const ia = DTYPE_ORDER.indexOf(a), ib = DTYPE_ORDER.indexOf(b);
    if (ia !== ib) return (ia < 0 ? DTYPE_ORDER.length : ia) - (ib < 0 ? DTYPE_ORDER.length : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function distinct(values, compare) {
    return Array.from(new Set(values)).sort(compare);
  }

  // ---- The data. ----
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const points = data.points.map(function (row, index) {
    const histogram = ULP_BUCKETS.map((bucket, i) => row[6][i] || 0);
    return {
      index: index, id: row[0], op: row[1], dtype: row[2], verdict: row[3], failedRules: row[4],
      maxUlp: row[5] === null ? null : number(row[5]), histogram: histogram,
      outputs: row[7].map(function (o) {
        const shape = data.output_shapes[o[2]] || ['', []];
        return {worstUlp: number(o[0]), worstPassed: o[1] === 1, name: shape[0], inputNames: shape[1], inputValues: o[3].map(number)};
      }),
    };
  });
  const operators = distinct(points.map(p => p.op));
  const dtypes = distinct(points.map(p => p.dtype), compareDtypes);

  // ---- Filters. ----
  const filter = {op: '', dtype: '', status: '', q: ''};
  const controls = {
    op: document.getElementById('filter-op'),
    dtype: document.getElementById('filter-dtype'),
    status: document.getElementById('filter-status'),
    q: document.getElementById('filter-text'),
  };

  function matches(op, dtype, verdict, id) {
    return (!filter.op || op === filter.op) && (!filter.dtype || dtype === filter.dtype) &&
           (!filter.status || verdict === filter.status) &&
           (!filter.q || id.toLowerCase().includes(filter.q.toLowerCase()));
  }
  function filtering() {
    return Boolean(filter.op || filter.dtype || filter.status || filter.q);
  }
  function readFragment() {
    const fragment = location.hash.slice(1);
    if (!fragment.includes('=')) return false;  // a plain anchor such as #failure-3
    const parameters = new URLSearchParams(fragment);
    for (const key of Object.keys(filter)) filter[key] = parameters.get(key) || '';
    return true;
  }
  function writeFragment() {
    const parameters = new URLSearchParams();
    for (const key of Object.keys(filter)) if (filter[key]) parameters.set(key, filter[key]);
    const text = parameters.toString();
    try {
      history.replaceState(null, '', text ? '#' + text : location.pathname + location.search);
    } catch (error) {
      // Some browsers refuse replaceState on file: pages; the filters still work, unshared.
    }
  }
  function fillSelect(select, values) {
    for (const value of values) select.appendChild(element('option', {value: value}, value));
  }
  function showControls() {
    for (const key of Object.keys(controls)) {
      const control = controls[key];
      if (control.tagName === 'SELECT' && filter[key] &&
          !Array.from(control.options).some(option => option.value === filter[key])) {
        control.appendChild(element('option', {value: filter[key]}, filter[key]));
      }
      control.value = filter[key];
    }
  }

  // ---- The static failure list: filtered in place. ----
  const failureEntries = Array.from(document.querySelectorAll('#failure-list > li.failure')).map(
    entry => ({entry: entry, id: entry.querySelector('.point-id').textContent}));
  function filterFailures() {
    let shown = 0;
    for (const {entry, id} of failureEntries) {
      const visible = matches(entry.dataset.op, entry.dataset.dtype, entry.dataset.status, id);
      entry.hidden = !visible;
      shown += visible ? 1 : 0;
    }
    const note = document.getElementById('failure-filter-note');
    if (note) {
      note.hidden = !filtering();
      note.textContent = 'Showing ' + shown + ' of ' + failureEntries.length + ' listed failures that match the filters.';
    }
  }
  function enableCopyButtons() {
    for (const button of document.querySelectorAll('button.copy')) {
      button.hidden = false;
      button.addEventListener('click', function () {
        const code = button.parentNode.querySelector('.repro-line');
        copyText(code, button);
      });
    }
  }
  function copyText(code, button) {
    const done = function () { button.textContent = 'Copied ✔'; setTimeout(() => { button.textContent = 'Copy'; }, 1500); };
    const selectForManualCopy = function () {
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(code.textContent).then(done, selectForManualCopy);
    } else {
      selectForManualCopy();
    }
  }

  // ---- Matrix: operator x dtype. ----
  function verdictGroup(verdict) {
    return verdict === 'passed' ? 'passed' : verdict === 'not-provided' ? 'skipped' : 'failed';
  }
  function drawMatrix() {
    const counts = new Map();
    for (const p of points) {
      const key = p.op + '\u0000' + p.dtype;
      if (!counts.has(key)) counts.set(key, {passed: 0, failed: 0, skipped: 0});
      counts.get(key)[verdictGroup(p.verdict)] += 1;
    }
    const table = document.getElementById('matrix');
    const head = element('thead');
    const headRow = element('tr');
    headRow.appendChild(element('th', {scope: 'col'}, 'Operator \\ dtype'));
    for (const dtype of dtypes) headRow.appendChild(element('th', {scope: 'col'}, dtype));
    head.appendChild(headRow);
    table.appendChild(head);
    const body = element('tbody');
    for (const op of operators) {
      const row = element('tr');
      row.appendChild(element('th', {scope: 'row'}, op));
      for (const dtype of dtypes) {
        const c = counts.get(op + '\u0000' + dtype);
        if (!c) {
          row.appendChild(element('td', {'class': 'cell-empty', title: 'no test points'}, '·'));
          continue;
        }
        const state = c.failed ? 'failed' : c.passed ? 'passed' : 'skipped';
        const cell = element('td', {
          'class': 'matrix-cell cell-' + state, 'data-op': op, 'data-dtype': dtype,
          'data-passed': c.passed, 'data-failed': c.failed, 'data-skipped': c.skipped,
        });
        const fragment = new URLSearchParams({op: op, dtype: dtype}).toString();
        const link = element('a', {
          href: '#' + fragment,
          'aria-label': op + ' ' + dtype + ': ' + c.passed + ' passed, ' + c.failed + ' failed, ' + c.skipped + ' skipped',
        });
        if (c.failed) link.appendChild(element('span', {'class': 'cell-line mark mark-failed'}, '✘ ' + c.failed + ' failed'));
        if (c.passed) link.appendChild(element('span', {'class': 'cell-line mark mark-passed'}, '✔ ' + c.passed + ' passed'));
        if (c.skipped) link.appendChild(element('span', {'class': 'cell-line mark mark-not-provided'}, '– ' + c.skipped + ' skipped'));
        link.addEventListener('click', function (event) {
          event.preventDefault();
          Object.assign(filter, {op: op, dtype: dtype, status: '', q: ''});
          update(true);
          document.getElementById('points-section').scrollIntoView();
        });
        cell.appendChild(link);
        row.appendChild(cell);
      }
      body.appendChild(row);
    }
    table.appendChild(body);
  }
  function markSelectedCell() {
    for (const cell of document.querySelectorAll('#matrix td.matrix-cell')) {
      const selected = (filter.op || filter.dtype) && (!filter.op || cell.dataset.op === filter.op) &&
                       (!filter.dtype || cell.dataset.dtype === filter.dtype);
      cell.classList.toggle('cell-selected', Boolean(selected));
    }
  }

  // ---- Rule coverage. ----
  function drawCoverage() {
    const body = document.querySelector('#coverage tbody');
    clear(body);
    for (const rule of data.rule_coverage || []) {
      if (filter.op && rule.op && rule.op !== filter.op) continue;
      const applied = rule.applied || 0, held = rule.held || 0;
      let state, mark;
      if (applied === 0) { state = '○ not exercised'; mark = 'mark-not-provided'; }
      else if (rule.waived) { state = '⊘ waived (held ' + held + ' of ' + applied + ')'; mark = 'mark-not-provided'; }
      else if (held < applied) { state = '✘ broken in ' + (applied - held); mark = 'mark-failed'; }
      else { state = '✔ held'; mark = 'mark-passed'; }
      const row = element('tr', {'class': applied === 0 ? 'unexercised' : '', 'data-rule': rule.id});
      row.appendChild(element('td', {}, '')).appendChild(element('code', {}, rule.id));
      row.appendChild(element('td', {}, rule.op || 'all'));
      row.appendChild(element('td', {}, rule.kind || ''));
      row.appendChild(element('td', {'class': 'num'}, String(applied)));
      row.appendChild(element('td', {'class': 'num'}, String(held)));
      row.appendChild(element('td', {}, '')).appendChild(element('span', {'class': 'mark ' + mark}, state));
      row.appendChild(element('td', {}, (rule.cases || []).join(', ')));
      row.appendChild(element('td', {}, rule.description || ''));
      body.appendChild(row);
    }
  }

  // ---- Calling patterns (when the run had any). ----
  function drawPatterns() {
    const patterns = data.calling_patterns;
    if (!Array.isArray(patterns) || patterns.length === 0) return;
    document.getElementById('patterns-section').hidden = false;
    const body = document.querySelector('#patterns tbody');
    const keys = ['points', 'passed', 'failed', 'waived', 'not_provided'];
    for (const pattern of patterns) {
      const mark = pattern.failed > 0 ? 'mark-failed' : pattern.points > 0 ? 'mark-passed' : 'mark-not-provided';
      const attributes = {'data-pattern': pattern.rule};
      for (const key of keys) attributes['data-' + key.replace('_', '-')] = String(pattern[key] || 0);
      const row = body.appendChild(element('tr', attributes));
      row.appendChild(element('td', {}, '')).appendChild(element('code', {'class': 'mark ' + mark}, pattern.rule));
      for (const key of keys) row.appendChild(element('td', {'class': 'num'}, String(pattern[key] || 0)));
    }
  }

  // ---- Plots. ----
  function logScale(value, max, length) {
    return max <= 0 ? 0 : Math.log10(1 + value) / Math.log10(1 + max) * length;
  }
  function histogram(group) {
    const totals = ULP_BUCKETS.map(() => 0);
    for (const p of group) p.histogram.forEach((count, i) => { totals[i] += count; });
    const width = 300, height = 200, left = 36, bottom = 34, top = 18;
    const plotHeight = height - bottom - top, slot = (width - left - 6) / ULP_BUCKETS.length;
    const max = Math.max.apply(null, totals);
    const svg = svgElement('svg', {viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img',
                                   'class': 'histogram', 'aria-label': 'ULP error histogram'});
    svg.appendChild(svgElement('title', {}, 'Elements per ULP-error bucket: ' +
                               ULP_BUCKETS.map((b, i) => b + ': ' + totals[i]).join(', ')));
    svg.appendChild(svgElement('line', {'class': 'axis', x1: left, y1: top + plotHeight, x2: width - 4, y2: top + plotHeight}));
    totals.forEach(function (count, i) {
      const barHeight = logScale(count, max, plotHeight);
      const x = left + i * slot + 4;
      const bar = svgElement('rect', {'class': 'bar', x: x, y: top + plotHeight - barHeight, width: slot - 8, height: barHeight});
      bar.appendChild(svgElement('title', {}, count + ' elements with a ULP error of ' + ULP_BUCKETS[i]));
      svg.appendChild(bar);
      svg.appendChild(svgElement('text', {x: x + (slot - 8) / 2, y: top + plotHeight - barHeight - 3, 'text-anchor': 'middle'},
                                 count >= 1e6 ? (count / 1e6).toPrecision(3) + 'M' : count >= 1e4 ? Math.round(count / 1e3) + 'k' : String(count)));
      svg.appendChild(svgElement('text', {x: x + (slot - 8) / 2, y: top + plotHeight + 14, 'text-anchor': 'middle'}, ULP_BUCKETS[i]));
    });
    svg.appendChild(svgElement('text', {x: left + (width - left) / 2, y: height - 3, 'text-anchor': 'middle'}, 'ULP error'));
    svg.appendChild(svgElement('text', {x: 10, y: top + plotHeight / 2, 'text-anchor': 'middle',
                                        transform: 'rotate(-90 10 ' + (top + plotHeight / 2) + ')'}, 'elements (log)'));
    return svg;
  }
  // The worst element of each output of the group's worst test points.
  function worstElements(group) {
    const elements = [];
    for (const p of group) for (const o of p.outputs) elements.push({point: p, output: o});
    const severity = e => Number.isNaN(e.output.worstUlp) ? Infinity : e.output.worstUlp;
    elements.sort((a, b) => severity(b) - severity(a));
    return elements.slice(0, SCATTER_POINTS);
  }
  // The default x axis: the first input that is not an incoming gradient (gradOutput, outputGrad,
  // ...), i.e. the operator's own input, where boundaries and special values live.
  function defaultInput(names) {
    return names.find(name => !/^grad|grad$/i.test(name)) || names[0];
  }
  function niceTicks(low, high, count) {
    if (!(high > low)) return [low];
    const step0 = (high - low) / count, power = Math.pow(10, Math.floor(Math.log10(step0)));
    const step = [1, 2, 5, 10].map(f => f * power).find(s => s >= step0);
    const ticks = [];
    for (let t = Math.ceil(low / step) * step; t <= high + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
    return ticks;
  }
  // Ticks and labels for a log10(1 + u) axis: 0, 1, 10, 100, 1k, ... 1e6 ...
  function decadeLabel(value) {
    return value < 1e4 ? String(value) : value < 1e6 ? value / 1e3 + 'k' : '1e' + Math.round(Math.log10(value));
  }
  // Inputs can span ±3.4e38 next to ±3: beyond 1e4 the x axis turns symmetric-logarithmic.
  function xAxis(low, high, left, plotWidth) {
    const symlog = Math.max(Math.abs(low), Math.abs(high)) > 1e4;
    const warp = symlog ? x => Math.sign(x) * Math.log10(1 + Math.abs(x)) : x => x;
    const a = warp(low), b = warp(high);
    const position = x => left + (warp(x) - a) / (b - a) * plotWidth;
    let ticks;
    if (symlog) {
      // At most three decades labelled on each side of zero.
      const topDecade = Math.floor(Math.log10(Math.max(Math.abs(low), Math.abs(high))));
      const step = Math.max(1, Math.ceil(topDecade / 3));
      ticks = [0];
      for (let k = step; k <= topDecade; k += step) {
        ticks.push(Math.pow(10, k));
        ticks.unshift(-Math.pow(10, k));
      }
    } else {
      ticks = niceTicks(low, high, 5);
    }
    return {position: position, ticks: ticks.filter(t => t >= low && t <= high), symlog: symlog};
  }
  function tickLabel(value) {
    const magnitude = Math.abs(value);
    if (magnitude >= 1e4) return (value < 0 ? '−' : '') + '1e' + Math.round(Math.log10(magnitude));
    return formatNumber(value);
  }
  function scatter(elements, inputName) {
    const width = 380, height = 200, left = 52, right = 10, top = 12, bottom = 34;
    const plotWidth = width - left - right, plotHeight = height - top - bottom;
    const drawn = [];
    let unplottable = 0;
    for (const e of elements) {
      const x = e.output.inputValues[e.output.inputNames.indexOf(inputName)];
      if (Number.isFinite(x)) drawn.push({x: x, e: e}); else unplottable += 1;
    }
    const svg = svgElement('svg', {viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img',
                                   'class': 'scatter', 'aria-label': 'ULP error of the worst elements against ' + inputName});
    svg.appendChild(svgElement('title', {}, 'ULP error of the worst element of ' + drawn.length + ' outputs against ' + inputName));
    const xs = drawn.map(d => d.x);
    let low = xs.length ? Math.min.apply(null, xs) : 0, high = xs.length ? Math.max.apply(null, xs) : 1;
    if (low === high) { low -= 1; high += 1; }
    const axis = xAxis(low, high, left + 4, plotWidth - 8);
    const finiteUlps = drawn.map(d => d.e.output.worstUlp).filter(Number.isFinite);
    const maxUlp = Math.max(1, finiteUlps.length ? Math.max.apply(null, finiteUlps) : 1);
    // Non-finite ULP errors (an inf or NaN where a number was due) sit on a row of their own on top.
    const yOf = u => Number.isFinite(u) ? top + plotHeight - logScale(u, maxUlp * 1.5, plotHeight - 14) : top + 2;
    for (let decade = 1; decade <= maxUlp * 1.5; decade *= 10) {
      const y = yOf(decade);
      svg.appendChild(svgElement('line', {'class': 'grid', x1: left, y1: y, x2: width - right, y2: y}));
      svg.appendChild(svgElement('text', {x: left - 4, y: y + 4, 'text-anchor': 'end'}, decadeLabel(decade)));
    }
    svg.appendChild(svgElement('text', {x: left - 4, y: top + plotHeight + 4, 'text-anchor': 'end'}, '0'));
    if (drawn.some(d => !Number.isFinite(d.e.output.worstUlp))) {
      svg.appendChild(svgElement('text', {x: left - 4, y: top + 6, 'text-anchor': 'end'}, 'inf/NaN'));
    }
    svg.appendChild(svgElement('line', {'class': 'axis', x1: left, y1: top + plotHeight, x2: width - right, y2: top + plotHeight}));
    svg.appendChild(svgElement('line', {'class': 'axis', x1: left, y1: top, x2: left, y2: top + plotHeight}));
    for (const tick of axis.ticks) {
      svg.appendChild(svgElement('text', {x: axis.position(tick), y: top + plotHeight + 14, 'text-anchor': 'middle'}, tickLabel(tick)));
    }
    svg.appendChild(svgElement('text', {x: left + plotWidth / 2, y: height - 3, 'text-anchor': 'middle'},
                               inputName + (axis.symlog ? ' (symmetric log scale)' : '')));
    svg.appendChild(svgElement('text', {x: 10, y: top + plotHeight / 2, 'text-anchor': 'middle',
                                        transform: 'rotate(-90 10 ' + (top + plotHeight / 2) + ')'}, 'ULP error (log)'));
    for (const d of drawn) {
      const x = axis.position(d.x), y = yOf(d.e.output.worstUlp), o = d.e.output;
      const marker = o.worstPassed
        ? svgElement('circle', {'class': 'dot-passed', cx: x, cy: y, r: 3})
        : svgElement('path', {'class': 'dot-failed', d: 'M' + (x - 3.5) + ' ' + (y - 3.5) + 'l7 7m0 -7l-7 7'});
      marker.appendChild(svgElement('title', {}, d.e.point.id + ' · ' + o.name + ': ' + formatNumber(o.worstUlp) +
                                    ' ULP at ' + inputName + ' = ' + formatNumber(d.x) + (o.worstPassed ? ' (within bound)' : ' (fails)')));
      svg.appendChild(marker);
    }
    return {svg: svg, unplottable: unplottable};
  }
  function drawPlots(filtered) {
    const container = document.getElementById('plots');
    clear(container);
    const groups = new Map();
    for (const p of filtered) {
      if (!p.outputs.length) continue;
      const key = p.op + '\u0000' + p.dtype;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
    const keys = Array.from(groups.keys()).sort(function (a, b) {
      const [opA, dtypeA] = a.split('\u0000'), [opB, dtypeB] = b.split('\u0000');
      return opA !== opB ? (opA < opB ? -1 : 1) : compareDtypes(dtypeA, dtypeB);
    });
    for (const key of keys) {
      const group = groups.get(key);
      const [op, dtype] = key.split('\u0000');
      const figure = element('figure', {'class': 'plot', 'data-op': op, 'data-dtype': dtype});
      figure.appendChild(element('figcaption', {}, op + ' · ' + dtype + ' (' + group.length + ' test points with outputs)'));
      const pair = element('div', {'class': 'plot-pair'});
      pair.appendChild(histogram(group));
      const elements = worstElements(group);
      const names = distinct([].concat.apply([], elements.map(e => e.output.inputNames)));
      const scatterBox = element('div');
      const note = element('p', {'class': 'axis-choice'});
      const drawScatter = function (name) {
        const old = scatterBox.querySelector('svg');
        const drawn = scatter(elements, name);
        if (old) scatterBox.replaceChild(drawn.svg, old); else scatterBox.insertBefore(drawn.svg, scatterBox.firstChild);
        note.textContent = drawn.unplottable ? drawn.unplottable + ' with a non-finite ' + name + ' not drawn.' : '';
      };
      if (names.length) {
        const chosen = defaultInput(names);
        drawScatter(chosen);
        if (names.length > 1) {
          const label = element('label', {'class': 'axis-choice'}, 'x axis: ');
          const select = element('select');
          fillSelect(select, names);
          select.value = chosen;
          select.addEventListener('change', () => drawScatter(select.value));
          label.appendChild(select);
          scatterBox.appendChild(label);
        }
        scatterBox.appendChild(note);
      }
      pair.appendChild(scatterBox);
      figure.appendChild(pair);
      container.appendChild(figure);
    }
    if (!keys.length) container.appendChild(element('p', {'class': 'hint'}, 'No test point with outputs matches the filters.'));
  }

  // ---- Test points. ----
  let pointsShown = POINTS_PAGE;
  function drawPoints(filtered) {
    const body = document.querySelector('#points tbody');
    clear(body);
    for (const p of filtered.slice(0, pointsShown)) {
      const row = element('tr', {'data-verdict': p.verdict});
      row.appendChild(element('td', {}, '')).appendChild(element('span', {'class': 'mark mark-' + p.verdict}, VERDICT_TEXT[p.verdict] || p.verdict));
      const idCell = row.appendChild(element('td'));
      if (document.getElementById('failure-' + p.index)) {
        idCell.appendChild(element('a', {href: '#failure-' + p.index}, '')).appendChild(element('code', {}, p.id));
      } else {
        idCell.appendChild(element('code', {}, p.id));
      }
      row.appendChild(element('td', {}, p.op));
      row.appendChild(element('td', {}, p.dtype));
      row.appendChild(element('td', {'class': 'num'}, p.maxUlp === null ? '–' : formatNumber(p.maxUlp)));
      row.appendChild(element('td', {}, p.failedRules.join(', ')));
      body.appendChild(row);
    }
    document.getElementById('points-summary').textContent =
      'Showing ' + Math.min(pointsShown, filtered.length) + ' of ' + filtered.length + ' test points' +
      (filtering() ? ' that match the filters (' + points.length + ' in the report).' : '.');
    document.getElementById('points-more').hidden = filtered.length <= pointsShown;
  }

  // ---- Benchmark trends (bench_history, when the report has one). ----
  function throughput(value) {
    const units = ['B/s', 'KB/s', 'MB/s', 'GB/s', 'TB/s'];
    let unit = 0;
    while (Math.abs(value) >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
    return value.toPrecision(3) + ' ' + units[unit];
  }
  function drawBench() {
    const history = Array.isArray(data.bench_history) ? data.bench_history : [];
    const series = new Map();
    for (const entry of history) {
      const value = number(entry && entry.bytes_per_second);
      if (!entry || typeof entry.name !== 'string' || !Number.isFinite(value)) continue;
      if (!series.has(entry.name)) series.set(entry.name, []);
      series.get(entry.name).push({date: String(entry.date || ''), value: value});
    }
    if (!series.size) return;
    document.getElementById('bench-section').hidden = false;
    const container = document.getElementById('bench');
    for (const name of Array.from(series.keys()).sort()) {
      const runs = series.get(name).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const width = 380, height = 170, left = 64, right = 10, top = 10, bottom = 30;
      const plotWidth = width - left - right, plotHeight = height - top - bottom;
      const max = Math.max.apply(null, runs.map(r => r.value)) * 1.1 || 1;
      const xOf = i => left + (runs.length > 1 ? i / (runs.length - 1) * plotWidth : plotWidth / 2);
      const yOf = v => top + plotHeight - v / max * plotHeight;
      const figure = element('figure', {'class': 'plot', 'data-bench': name});
      figure.appendChild(element('figcaption', {}, name + ' — latest ' + throughput(runs[runs.length - 1].value)));
      const svg = svgElement('svg', {viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img',
                                     'aria-label': 'bytes per second of ' + name + ' over ' + runs.length + ' runs'});
      for (const tick of niceTicks(0, max, 4)) {
        svg.appendChild(svgElement('line', {'class': 'grid', x1: left, y1: yOf(tick), x2: width - right, y2: yOf(tick)}));
        svg.appendChild(svgElement('text', {x: left - 4, y: yOf(tick) + 4, 'text-anchor': 'end'}, throughput(tick)));
      }
      svg.appendChild(svgElement('polyline', {'class': 'trend', points: runs.map((r, i) => xOf(i) + ',' + yOf(r.value)).join(' ')}));
      runs.forEach(function (r, i) {
        const dot = svgElement('circle', {'class': 'trend-point', cx: xOf(i), cy: yOf(r.value), r: 3});
        dot.appendChild(svgElement('title', {}, r.date + ': ' + throughput(r.value)));
        svg.appendChild(dot);
      });
      svg.appendChild(svgElement('text', {x: left, y: height - 4, 'text-anchor': 'start'}, runs[0].date));
      if (runs.length > 1) svg.appendChild(svgElement('text', {x: width - right, y: height - 4, 'text-anchor': 'end'}, runs[runs.length - 1].date));
      figure.appendChild(svg);
      container.appendChild(figure);
    }
  }

  // ---- Time by stage (timing, when the report's points have stage_seconds). ----
  function duration(value) {
    if (!Number.isFinite(value)) return '–';
    return value < 1 ? (value * 1000).toPrecision(3) + ' ms' : value.toPrecision(3) + ' s';
  }
  // One bar for a row: a segment per stage (in the table's order), the rest of its wall time grey.
  function stageBar(total, stageSeconds, names) {
    const width = 160, height = 12;
    const sum = stageSeconds.reduce((a, b) => a + b, 0);
    const scale = width / Math.max(total, sum, 1e-12);
    const svg = svgElement('svg', {
      'class': 'stage-bar',
      viewBox: '0 0 ' + width + ' ' + height,
      width: width,
      height: height,
      role: 'img',
      'aria-label': names.map((n, i) => n + ' ' + duration(stageSeconds[i])).join(', ')
    });
    let x = 0;
    stageSeconds.forEach(function(value, i) {
      if (!(value > 0)) return;
      const rect = svgElement(
          'rect',
          {'class': 'stage-' + names.index[i], x: x, y: 0, width: value * scale, height: height});
      rect.appendChild(svgElement('title', {}, names[i] + ': ' + duration(value)));
      svg.appendChild(rect);
      x += value * scale;
    });
    if (total > sum)
      svg.appendChild(svgElement(
          'rect',
          {'class': 'stage-rest', x: x, y: 0, width: (total - sum) * scale, height: height}));
    return svg;
  }
  function timingTable(table, firstColumns, rows, names) {
    const head = table.querySelector('thead'), body = table.querySelector('tbody');
    const header = head.appendChild(element('tr'));
    for (const [name, numeric] of firstColumns)
      header.appendChild(element('th', {scope: 'col', 'class': numeric ? 'num' : ''}, name));
    for (const name of names)
      header.appendChild(element('th', {scope: 'col', 'class': 'num'}, name));
    header.appendChild(element('th', {scope: 'col'}, 'Split'));
    for (const row of rows) {
      const attributes = {'data-timing': row.kind, 'data-key': row.key, 'data-seconds': row.total};
      names.forEach((name, i) => {
        attributes['data-stage-' + name] = row.stages[i];
      });
      const tr = body.appendChild(element('tr', attributes));
      for (const [text, numeric] of row.cells)
        tr.appendChild(element('td', {'class': numeric ? 'num' : ''}, text));
      row.stages.forEach(value => tr.appendChild(element('td', {'class': 'num'}, duration(value))));
      tr.appendChild(element('td')).appendChild(stageBar(row.total, row.stages, names));
    }
  }
  function drawTiming() {
    const timing = data.timing;
    if (!timing || !Array.isArray(timing.stages) || !Array.isArray(timing.groups)) return;
    const kept =
        timing.stages.map((_, i) => i).filter(i => timing.groups.some(g => number(g[4][i]) > 0));
    const names = kept.map(i => timing.stages[i]);
    names.index = kept;
    const pick = values => kept.map(i => number(values[i]) || 0);
    document.getElementById('timing-section').hidden = false;
    timingTable(
        document.getElementById('timing'),
        [['Operator', false], ['Dtype', false], ['Points', true], ['Seconds', true]],
        timing.groups.map(
            g => ({
              kind: 'group',
              key: g[0] + ' ' + g[1],
              cells: [
                [g[0], false], [g[1], false], [String(g[2]), true], [duration(number(g[3])), true]
              ],
              total: number(g[3]),
              stages: pick(g[4])
            })),
        names);
    timingTable(
        document.getElementById('timing-slowest'), [['Test point', false], ['Seconds', true]],
        (timing.slowest || []).map(p => ({
                                     kind: 'slowest',
                                     key: p[0],
                                     cells: [[p[0], false], [duration(number(p[1])), true]],
                                     total: number(p[1]),
                                     stages: pick(p[2])
                                   })),
        names);
  }

  // ---- Putting it together. ----
  // changedHere: the filters changed on the page (not from the fragment), so the fragment follows.
  function update(changedHere) {
    if (changedHere) writeFragment();
    showControls();
    const filtered = points.filter(p => matches(p.op, p.dtype, p.verdict, p.id));
    filterFailures();
    markSelectedCell();
    drawCoverage();
    drawPlots(filtered);
    pointsShown = POINTS_PAGE;
    drawPoints(filtered);
    document.getElementById('filter-summary').textContent =
      filtered.length + ' of ' + points.length + ' test points match.';
  }
  function connectControls() {
    let typing = 0;
    controls.op.addEventListener('change', () => { filter.op = controls.op.value; update(true); });
    controls.dtype.addEventListener('change', () => { filter.dtype = controls.dtype.value; update(true); });
    controls.status.addEventListener('change', () => { filter.status = controls.status.value; update(true); });
    controls.q.addEventListener('input', function () {
      clearTimeout(typing);
      typing = setTimeout(() => { filter.q = controls.q.value; update(true); }, 150);
    });
    document.getElementById('filter-reset').addEventListener('click', function () {
      Object.assign(filter, {op: '', dtype: '', status: '', q: ''});
      update(true);
    });
    document.getElementById('points-more').addEventListener('click', function () {
      pointsShown += POINTS_PAGE;
      drawPoints(points.filter(p => matches(p.op, p.dtype, p.verdict, p.id)));
    });
    window.addEventListener('hashchange', function () { if (readFragment()) update(false); });
  }

  try {
    fillSelect(controls.op, operators);
    fillSelect(controls.dtype, dtypes);
    for (const id of ['filters', 'matrix-section', 'coverage-section', 'plots-section', 'points-section']) {
      document.getElementById(id).hidden = false;
    }
    enableCopyButtons();
    drawMatrix();
    drawBench();
    drawTiming();
    drawPatterns();
    readFragment();
    connectControls();
    update(false);
    const elapsed = performance.now() - started;
    const renderTime = document.getElementById('render-time');
    renderTime.dataset.renderMs = elapsed.toFixed(1);
    renderTime.dataset.sinceNavigationMs = performance.now().toFixed(1);
    renderTime.textContent = 'Drawn in ' + elapsed.toFixed(0) + ' ms from ' + points.length + ' test points.';
    document.body.dataset.rendered = 'true';
  } catch (error) {
    document.body.dataset.renderError = String(error);
    document.body.insertBefore(element('p', {'class': 'note'}, 'The page\'s script failed (' + error +
                                       '); the summary above and the failure list are complete.'),
                               document.getElementById('filters'));
  }
})();
