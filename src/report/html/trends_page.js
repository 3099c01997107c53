// trends.html's script: one SVG plot per benchmark and per operator and dtype, drawn from the data
// in #trend-data (its layout: src/report/trend_data.h). Strings come from history files, so they
// reach the page through textContent and attribute values only, never as markup.
(function () {
  'use strict';

  const started = performance.now();
  const SVG_NS = 'http://www.w3.org/2000/svg';  // a namespace name, never fetched
  const WIDTH = 420, HEIGHT = 190, LEFT = 70, RIGHT = 12, TOP = 12, BOTTOM = 34;

  function element(tag, attributes, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svgElement(tag, attributes, text) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function niceTicks(low, high, count) {
    if (!(high > low)) return [low];
    const step0 = (high - low) / count, power = Math.pow(10, Math.floor(Math.log10(step0)));
    const step = [1, 2, 5, 10].map(f => f * power).find(s => s >= step0);
    const ticks = [];
    for (let t = Math.ceil(low / step) * step; t <= high + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
    return ticks;
  }
  function throughput(value) {
    const units = ['B/s', 'KB/s', 'MB/s', 'GB/s', 'TB/s'];
    let unit = 0;
    while (Math.abs(value) >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
    return value.toPrecision(3) + ' ' + units[unit];
  }
  function duration(seconds) {
    const units = [['s', 1], ['ms', 1e-3], ['µs', 1e-6], ['ns', 1e-9]];
    const [unit, scale] = units.find(([, scale]) => Math.abs(seconds) >= scale) || units[units.length - 1];
    return (seconds / scale).toPrecision(3) + ' ' + unit;
  }
  function shortRevision(revision) {
    return /^[0-9a-f]{12,}/.test(revision) ? revision.slice(0, 10) : revision;
  }
  function runLabel(run) {
    return run.date + ' · ' + shortRevision(String(run.git_revision)) + ' · provider ' + run.provider + ' · ' + run.soc;
  }

  // An empty plot: axes from y ticks, x positions by run index. Returns helpers to draw into it.
  function plot(container, caption, ariaLabel, count, yTicks, yOf, yLabel) {
    const figure = element('figure', {'class': 'plot'});
    figure.appendChild(element('figcaption', {}, caption));
    const svg = svgElement('svg', {viewBox: '0 0 ' + WIDTH + ' ' + HEIGHT, width: WIDTH, height: HEIGHT, role: 'img', 'aria-label': ariaLabel});
    for (const tick of yTicks) {
      svg.appendChild(svgElement('line', {'class': 'grid', x1: LEFT, y1: yOf(tick), x2: WIDTH - RIGHT, y2: yOf(tick)}));
      svg.appendChild(svgElement('text', {x: LEFT - 4, y: yOf(tick) + 4, 'text-anchor': 'end'}, yLabel(tick)));
    }
    svg.appendChild(svgElement('line', {'class': 'axis', x1: LEFT, y1: HEIGHT - BOTTOM, x2: WIDTH - RIGHT, y2: HEIGHT - BOTTOM}));
    const plotWidth = WIDTH - LEFT - RIGHT;
    const xOf = i => LEFT + (count > 1 ? i / (count - 1) * plotWidth : plotWidth / 2);
    figure.appendChild(svg);
    container.appendChild(figure);
    return {figure: figure, svg: svg, xOf: xOf};
  }
  function dateAxis(svg, first, last, count) {
    svg.appendChild(svgElement('text', {x: LEFT, y: HEIGHT - 6, 'text-anchor': 'start'}, first));
    if (count > 1) svg.appendChild(svgElement('text', {x: WIDTH - RIGHT, y: HEIGHT - 6, 'text-anchor': 'end'}, last));
  }

  // ---- Benchmarks: median and range per run, regressions marked. ----
  function drawBench(benchmarks) {
    if (!benchmarks.length) return;
    document.getElementById('bench-section').hidden = false;
    const container = document.getElementById('bench');
    for (const bench of benchmarks) {
      const runs = bench.runs;
      const max = Math.max.apply(null, runs.map(r => r.high)) * 1.1 || 1;
      const plotHeight = HEIGHT - TOP - BOTTOM;
      const yOf = v => TOP + plotHeight - v / max * plotHeight;
      const regressions = runs.filter(r => r.regression).length;
      const last = runs[runs.length - 1];
      const p = plot(container, bench.name + ' — latest ' + throughput(last.median) +
                     (regressions ? ' — ▼ ' + regressions + ' regression' + (regressions > 1 ? 's' : '') : ''),
                     'bytes per second of ' + bench.name + ' over ' + runs.length + ' runs', runs.length,
                     niceTicks(0, max, 4), yOf, throughput);
      p.figure.dataset.bench = bench.name;
      p.figure.dataset.runs = runs.length;
      p.figure.dataset.regressions = regressions;
      // One line per provider and SoC: runs of another provider are not the same series.
      const series = new Map();
      runs.forEach(function (run, i) {
        const key = run.provider + ' · ' + run.soc;
        if (!series.has(key)) series.set(key, []);
        series.get(key).push(p.xOf(i) + ',' + yOf(run.median));
      });
      for (const [key, points] of series) {
        p.svg.appendChild(svgElement('polyline', {'class': 'trend', points: points.join(' ')}));
        if (series.size > 1) {
          const [x, y] = points[points.length - 1].split(',').map(Number);
          p.svg.appendChild(svgElement('text', {'class': 'series-label', x: Math.min(x + 4, WIDTH - RIGHT), y: y - 6, 'text-anchor': x > WIDTH / 2 ? 'end' : 'start'}, key));
        }
      }
      runs.forEach(function (run, i) {
        const x = p.xOf(i);
        const mark = svgElement('g', {'class': run.regression ? 'bench-run regression-run' : 'bench-run'});
        mark.appendChild(svgElement('line', {'class': 'spread', x1: x, y1: yOf(run.low), x2: x, y2: yOf(run.high)}));
        if (run.regression) {
          const y = yOf(run.median);
          mark.appendChild(svgElement('path', {'class': 'regression', d: 'M' + (x - 6) + ',' + (y - 5) + 'h12l-6,10z'}));
        } else {
          mark.appendChild(svgElement('circle', {'class': 'trend-point', cx: x, cy: yOf(run.median), r: 3.5}));
        }
        let hover = runLabel(run) + '\nmedian ' + throughput(run.median) + ', range ' + throughput(run.low) + ' – ' +
                    throughput(run.high) + ' over ' + run.repetitions + ' repetition' + (run.repetitions === 1 ? '' : 's');
        if (run.compared_with !== null && run.change !== null) {
          hover += '\nvs run ' + (run.compared_with + 1) + ': time ' + (run.change >= 0 ? '+' : '') + (run.change * 100).toFixed(1) + ' %' +
                   (run.p_value !== null ? ', p = ' + run.p_value.toPrecision(2) : ' (threshold only: fewer than 5 repetitions)') +
                   (run.regression ? ' — REGRESSION' : '');
        }
        mark.appendChild(svgElement('title', {}, hover));
        p.svg.appendChild(mark);
      });
      dateAxis(p.svg, runs[0].date, last.date, runs.length);
      drawHostFigures(container, bench);
    }
  }

  // The host figures of one benchmark (seconds per launch of GetWorkspaceSize and of the execute
  // call), one line each; ▼ marks a run `bench compare` flags by that figure.
  const HOST_FIGURES = [
    {key: 'host_get_workspace', name: 'host GetWorkspaceSize', line: 'trend', mark: 'trend-point'},
    {key: 'host_launch', name: 'host launch', line: 'trend-failed', mark: 'failed-point'}];
  function drawHostFigures(container, bench) {
    const runs = bench.runs;
    const present = HOST_FIGURES.filter(f => runs.some(r => r[f.key]));
    if (!present.length) return;
    const max = Math.max.apply(null, runs.flatMap(r => present.map(f => r[f.key] ? r[f.key].high : 0))) * 1.1 || 1;
    const plotHeight = HEIGHT - TOP - BOTTOM;
    const yOf = v => TOP + plotHeight - v / max * plotHeight;
    const flagged = name => runs.filter(r => (r.regressions || []).includes(name)).length;
    const caption = bench.name + ' — host time per launch' + present.map(f => flagged(f.name) ? ' — ▼ ' + flagged(f.name) + ' ' + f.name : '').join('');
    const p = plot(container, caption, 'host seconds per launch of ' + bench.name + ' over ' + runs.length + ' runs',
                   runs.length, niceTicks(0, max, 4), yOf, duration);
    p.figure.dataset.benchHost = bench.name;
    for (const figure of present) {
      p.figure.dataset[figure.key === 'host_launch' ? 'launchRegressions' : 'getWorkspaceRegressions'] = flagged(figure.name);
      const points = [];
      runs.forEach(function (run, i) {
        const value = run[figure.key];
        if (!value) return;
        const x = p.xOf(i), y = yOf(value.median);
        points.push(x + ',' + y);
        const regressed = (run.regressions || []).includes(figure.name);
        const mark = svgElement('g', {'class': regressed ? 'bench-run regression-run' : 'bench-run'});
        mark.appendChild(svgElement('line', {'class': 'spread', x1: x, y1: yOf(value.low), x2: x, y2: yOf(value.high)}));
        mark.appendChild(regressed ? svgElement('path', {'class': 'regression', d: 'M' + (x - 6) + ',' + (y - 5) + 'h12l-6,10z'})
                                   : svgElement(figure.mark === 'trend-point' ? 'circle' : 'rect',
                                                figure.mark === 'trend-point' ? {'class': figure.mark, cx: x, cy: y, r: 3.5}
                                                                              : {'class': figure.mark, x: x - 3, y: y - 3, width: 6, height: 6}));
        mark.appendChild(svgElement('title', {}, runLabel(run) + '\n' + figure.name + ': median ' + duration(value.median) +
                                                 ', range ' + duration(value.low) + ' – ' + duration(value.high) +
                                                 (regressed ? ' — REGRESSION' : '')));
        p.svg.appendChild(mark);
      });
      p.svg.appendChild(svgElement('polyline', {'class': figure.line, points: points.join(' ')}));
    }
    dateAxis(p.svg, runs[0].date, runs[runs.length - 1].date, runs.length);
    p.figure.appendChild(element('p', {'class': 'legend'}, '● host GetWorkspaceSize (solid line) · ■ host launch (dashed line)'));
  }

  // ---- Conformance: pass counts, then worst ULP per operator and dtype. ----
  function drawConformance(conformance) {
    const runs = conformance.runs;
    if (!runs.length) return;
    document.getElementById('conformance-section').hidden = false;
    const container = document.getElementById('conformance');
    const max = Math.max.apply(null, runs.map(r => r.test_points)) * 1.1 || 1;
    const plotHeight = HEIGHT - TOP - BOTTOM;
    const yOf = v => TOP + plotHeight - v / max * plotHeight;
    const last = runs[runs.length - 1];
    const counts = plot(container, 'Test points — latest ' + last.passed + ' passed, ' + (last.failed + last.errors) + ' failed',
                        'passed and failed test points over ' + runs.length + ' runs', runs.length,
                        niceTicks(0, max, 4), yOf, String);
    counts.figure.dataset.conformance = 'counts';
    counts.figure.dataset.runs = runs.length;
    counts.svg.appendChild(svgElement('polyline', {'class': 'trend', points: runs.map((r, i) => counts.xOf(i) + ',' + yOf(r.passed)).join(' ')}));
    counts.svg.appendChild(svgElement('polyline', {'class': 'trend-failed', points: runs.map((r, i) => counts.xOf(i) + ',' + yOf(r.failed + r.errors)).join(' ')}));
    runs.forEach(function (run, i) {
      const mark = svgElement('g', {'class': 'conformance-run'});
      mark.appendChild(svgElement('circle', {'class': 'trend-point', cx: counts.xOf(i), cy: yOf(run.passed), r: 3.5}));
      mark.appendChild(svgElement('rect', {'class': 'failed-point', x: counts.xOf(i) - 3, y: yOf(run.failed + run.errors) - 3, width: 6, height: 6}));
      mark.appendChild(svgElement('title', {}, runLabel(run) + '\n' + run.test_points + ' test points: ' + run.passed + ' passed, ' +
                                              run.failed + ' failed, ' + run.errors + ' errors, ' + run.not_provided + ' not provided'));
      counts.svg.appendChild(mark);
    });
    dateAxis(counts.svg, runs[0].date, last.date, runs.length);
    counts.figure.appendChild(element('p', {'class': 'legend'}, '● passed (solid line) · ■ failed and errors (dashed line)'));

    for (const series of conformance.worst_ulp) {
      const finite = series.points.filter(point => point.max_ulp !== null);
      const top = Math.max(1, Math.max.apply(null, finite.map(point => point.max_ulp).concat([1])));
      // A log10(1 + u) axis up to the next power of ten above the worst value.
      const decades = Math.max(1, Math.ceil(Math.log10(top)));
      const axisTop = Math.log10(1 + Math.pow(10, decades));
      const yOfUlp = v => TOP + plotHeight - Math.log10(1 + v) / axisTop * plotHeight;
      const ticks = [];
      for (let d = 0; d <= decades; ++d) ticks.push(d === 0 ? 0 : Math.pow(10, d));
      const latest = series.points[series.points.length - 1];
      const p = plot(container, series.op + ' · ' + series.dtype + ' — worst ULP ' + (latest.max_ulp === null ? '–' : latest.max_ulp),
                     'worst ULP error of ' + series.op + ' ' + series.dtype + ' over ' + series.points.length + ' runs',
                     runs.length, ticks, yOfUlp, String);
      p.figure.dataset.worstUlp = series.op + '/' + series.dtype;
      p.svg.appendChild(svgElement('polyline', {'class': 'trend', points: finite.map(point => p.xOf(point.run) + ',' + yOfUlp(point.max_ulp)).join(' ')}));
      for (const point of series.points) {
        const run = runs[point.run];
        const mark = svgElement('g', {'class': 'ulp-run'});
        const y = yOfUlp(point.max_ulp === null ? 0 : point.max_ulp);
        const x = p.xOf(point.run);
        if (point.nonfinite > 0) {
          mark.appendChild(svgElement('path', {'class': 'nonfinite', d: 'M' + x + ',' + (TOP - 2) + 'l5,5l-5,5l-5,-5z'}));
        }
        if (point.max_ulp !== null) mark.appendChild(svgElement('circle', {'class': 'trend-point', cx: x, cy: y, r: 3}));
        mark.appendChild(svgElement('title', {}, runLabel(run) + '\nworst ULP ' + (point.max_ulp === null ? '–' : point.max_ulp) +
                                                (point.nonfinite ? ', ' + point.nonfinite + ' output(s) with an inf/NaN error' : '')));
        p.svg.appendChild(mark);
      }
      dateAxis(p.svg, runs[0].date, last.date, runs.length);
    }
  }

  try {
    const data = JSON.parse(document.getElementById('trend-data').textContent);
    drawConformance(data.conformance);
    drawBench(data.bench);
    const elapsed = performance.now() - started;
    const renderTime = document.getElementById('render-time');
    renderTime.dataset.renderMs = elapsed.toFixed(1);
    renderTime.textContent = 'Drawn in ' + elapsed.toFixed(0) + ' ms.';
    document.body.dataset.rendered = 'true';
  } catch (error) {
    document.body.dataset.renderError = String(error);
    document.body.insertBefore(element('p', {'class': 'note'}, 'The page\'s script failed (' + error + ').'),
                               document.querySelector('main'));
  }
})();
