// A small SVG line chart of per-step metrics: several series sharing a step axis, nice y ticks,
// dots while there are few points, and a hover read-out. `data-points` on the figure says how
// many steps are drawn (the browser test reads it).

const SVG = 'http://www.w3.org/2000/svg';
const W = 320;
const H = 150;
const M = { left: 42, right: 10, top: 8, bottom: 22 };
const PALETTE = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2'];
/** Points kept per series: the page never grows without bound. */
export const MAX_POINTS = 2000;

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) node.setAttribute(k, String(v));
  return node;
}

/** Short, readable number: 0.123, 12.3, 1.2e-5. */
export function formatNumber(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1000) return v.toFixed(0);
  if (a >= 1) return String(Number(v.toPrecision(3)));
  if (a >= 0.001) return String(Number(v.toFixed(3)));
  return v.toExponential(1);
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/** Y ticks covering [lo, hi] with round numbers. */
function yTicks(lo, hi) {
  if (hi - lo < 1e-12) {
    const pad = Math.max(Math.abs(hi) * 0.1, 0.1);
    lo -= pad;
    hi += pad;
  }
  const step = niceStep((hi - lo) / 4);
  const start = Math.floor(lo / step + 1e-9) * step;
  const end = Math.ceil(hi / step - 1e-9) * step;
  const ticks = [];
  for (let t = start; t <= end + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** Y ticks for data spanning [lo, hi] (Infinity/−Infinity when there is none) and the `include` values. */
function yTicksWith(lo, hi, include) {
  for (const v of include ?? []) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return lo === Infinity ? yTicks(0, 1) : yTicks(lo, hi);
}

/**
 * The card both charts draw in: a figure with a caption (title, legend) and the SVG, appended to
 * `parent`. Subclasses define hover(event) for mouse moves over the plot, clearHover() for when the
 * mouse leaves it, and render().
 */
class ChartCard {
  constructor(parent, spec) {
    this.spec = spec;
    this.figure = document.createElement('figure');
    this.figure.className = 'chart';
    this.figure.dataset.chart = spec.id;
    this.figure.dataset.points = '0';
    const caption = document.createElement('figcaption');
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = spec.title;
    this.legend = document.createElement('span');
    this.legend.className = 'legend';
    caption.append(title, this.legend);
    this.svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': spec.title });
    this.figure.append(caption, this.svg);
    parent.append(this.figure);
    this.svg.addEventListener('mousemove', (e) => this.hover(e));
    this.svg.addEventListener('mouseleave', () => {
      this.clearHover();
      this.render();
    });
  }
}

/** The y scale over `ticks` (first to last) and its grid lines with their labels. */
function yAxis(ticks) {
  const y0 = ticks[0];
  const y1 = ticks[ticks.length - 1];
  const py = (y) => H - M.bottom - ((y - y0) / (y1 - y0)) * (H - M.top - M.bottom);
  const nodes = [];
  for (const t of ticks) {
    nodes.push(svgEl('line', { class: t === 0 ? 'grid zero' : 'grid', x1: M.left, x2: W - M.right, y1: py(t), y2: py(t) }));
    const label = svgEl('text', { class: 'tick', x: M.left - 5, y: py(t) + 3.5, 'text-anchor': 'end' });
    label.textContent = formatNumber(t);
    nodes.push(label);
  }
  return { py, nodes };
}

/** The text shown in the middle of an empty plot. */
function emptyNote(message) {
  const empty = svgEl('text', { class: 'empty', x: (M.left + W - M.right) / 2, y: H / 2, 'text-anchor': 'middle' });
  empty.textContent = message;
  return empty;
}

/** The hover cursor: a vertical line at x across the plot. */
function cursorLine(x) {
  return svgEl('line', { class: 'cursor', x1: x, x2: x, y1: M.top, y2: H - M.bottom });
}

/** One chart card: title, legend with latest values, SVG plot. */
export class LineChart extends ChartCard {
  /**
   * @param {HTMLElement} parent where the card goes
   * @param {{ id: string, title: string, series: Array<{key: string, label?: string}>, extraKeys?: RegExp, include?: number[] }} spec
   *   `extraKeys`: metric keys that join this chart when they appear; `include`: y values always in range.
   */
  constructor(parent, spec) {
    super(parent, spec);
    this.series = [];
    this.steps = new Set();
    this.hoverStep = null;
    for (const s of spec.series) this.addSeries(s.key, s.label);
    this.render();
  }

  clearHover() {
    this.hoverStep = null;
  }

  addSeries(key, label) {
    const s = { key, label: label ?? key, color: PALETTE[this.series.length % PALETTE.length], xs: [], ys: [] };
    this.series.push(s);
    return s;
  }

  /** Adds new steps (in step order); returns true when something was added. */
  append(points) {
    let added = false;
    for (const p of points) {
      if (this.spec.extraKeys) {
        for (const key of Object.keys(p)) {
          if (this.spec.extraKeys.test(key) && !this.series.some((s) => s.key === key)) this.addSeries(key);
        }
      }
      for (const s of this.series) {
        const v = p[s.key];
        if (typeof v !== 'number' || !Number.isFinite(v)) continue;
        s.xs.push(p.step);
        s.ys.push(v);
        this.steps.add(p.step);
        added = true;
        if (s.xs.length > MAX_POINTS) {
          s.xs.shift();
          s.ys.shift();
        }
      }
    }
    if (this.steps.size > MAX_POINTS) this.steps = new Set(this.series.flatMap((s) => s.xs));
    if (added) this.render();
    return added;
  }

  /** Forgets all points (a new run started). */
  reset() {
    for (const s of this.series) {
      s.xs = [];
      s.ys = [];
    }
    this.steps = new Set();
    this.render();
  }

  domain() {
    let x0 = Infinity,
      x1 = -Infinity,
      y0 = Infinity,
      y1 = -Infinity;
    for (const s of this.series) {
      for (let i = 0; i < s.xs.length; i++) {
        x0 = Math.min(x0, s.xs[i]);
        x1 = Math.max(x1, s.xs[i]);
        y0 = Math.min(y0, s.ys[i]);
        y1 = Math.max(y1, s.ys[i]);
      }
    }
    if (x0 === Infinity) {
      x0 = 0;
      x1 = 1;
    }
    if (x1 === x0) {
      x0 -= 1;
      x1 += 1;
    }
    return { x0, x1, ticks: yTicksWith(y0, y1, this.spec.include) };
  }

  hover(event) {
    const box = this.svg.getBoundingClientRect();
    const { x0, x1 } = this.domain();
    const frac = (((event.clientX - box.left) / box.width) * W - M.left) / (W - M.left - M.right);
    const target = x0 + Math.min(1, Math.max(0, frac)) * (x1 - x0);
    let best = null;
    for (const step of this.steps) if (best === null || Math.abs(step - target) < Math.abs(best - target)) best = step;
    if (best !== this.hoverStep) {
      this.hoverStep = best;
      this.render();
    }
  }

  render() {
    const { x0, x1, ticks } = this.domain();
    const px = (x) => M.left + ((x - x0) / (x1 - x0)) * (W - M.left - M.right);
    const { py, nodes } = yAxis(ticks);
    if (this.steps.size > 0) {
      for (const [x, anchor] of [
        [x0, 'start'],
        [x1, 'end'],
      ]) {
        const label = svgEl('text', { class: 'tick', x: px(x), y: H - 6, 'text-anchor': anchor });
        label.textContent = `step ${x}`;
        nodes.push(label);
      }
    } else {
      nodes.push(emptyNote('waiting for the first training step'));
    }
    if (this.hoverStep !== null) nodes.push(cursorLine(px(this.hoverStep)));
    for (const s of this.series) {
      if (s.xs.length === 0) continue;
      const d = s.xs.map((x, i) => `${i === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(s.ys[i]).toFixed(1)}`).join('');
      nodes.push(svgEl('path', { class: 'line', d, stroke: s.color }));
      const dots = s.xs.length <= 40 ? s.xs.map((_, i) => i) : [s.xs.length - 1];
      for (const i of dots) nodes.push(svgEl('circle', { cx: px(s.xs[i]).toFixed(1), cy: py(s.ys[i]).toFixed(1), r: 2.2, fill: s.color }));
    }
    this.svg.replaceChildren(...nodes);
    this.figure.dataset.points = String(this.steps.size);
    this.renderLegend();
  }

  renderLegend() {
    const items = this.series
      .filter((s) => s.xs.length > 0 || this.series.length === 1)
      .map((s) => {
        const i = this.hoverStep === null ? s.ys.length - 1 : s.xs.indexOf(this.hoverStep);
        const item = document.createElement('span');
        item.className = 'item';
        const swatch = document.createElement('i');
        swatch.style.background = s.color;
        const value = document.createElement('b');
        value.textContent = formatNumber(i >= 0 ? s.ys[i] : null);
        item.append(swatch, document.createTextNode(`${s.label} `), value);
        return item;
      });
    if (this.hoverStep !== null) {
      const at = document.createElement('span');
      at.className = 'item at';
      at.textContent = `step ${this.hoverStep}`;
      items.push(at);
    }
    this.legend.replaceChildren(...items);
  }
}

/** Versions drawn at most (the newest): the x axis spaces them evenly, so more would be unreadable. */
export const MAX_VERSIONS = 60;

function formatInterval(ci) {
  return ci ? ` [${formatNumber(ci.low)}, ${formatNumber(ci.high)}]` : '';
}

/** A version's replay OPD advantage (docs/evaluation.md "Replay evaluation"), or undefined. */
function replayAdvantage(v) {
  return v.replay?.replay_opd_advantage?.value;
}

/**
 * Reward mean per policy version (GET /evaluation's `versions`) with its 95% interval as a whisker.
 * Versions are spaced evenly in version order; the serving one is ringed. `data-points` says how
 * many versions are drawn. Where versions have a replay evaluation, its OPD advantage is a second,
 * dashed line on the same axis (`data-replay-points`).
 */
export class IntervalChart extends ChartCard {
  /** @param {HTMLElement} parent  @param {{ id: string, title: string, include?: number[] }} spec */
  constructor(parent, spec) {
    super(parent, spec);
    this.rows = [];
    this.serving = null;
    this.hoverIndex = null;
    this.shown = '';
    this.message = 'waiting for judged turns';
    this.render();
  }

  clearHover() {
    this.hoverIndex = null;
  }

  /** Shows a new evaluation; redraws only when what is drawn changed. */
  update(evaluation) {
    const rows = evaluation.versions.filter((v) => v.reward.mean !== null).slice(-MAX_VERSIONS);
    const key = JSON.stringify([
      rows.map((v) => [v.policy_version, v.reward, v.negative_rate.rate, v.hint_rate.rate, replayAdvantage(v)]),
      evaluation.serving_policy_version,
    ]);
    if (key === this.shown) return;
    this.shown = key;
    this.rows = rows;
    this.serving = evaluation.serving_policy_version;
    this.message = 'waiting for judged turns';
    this.render();
  }

  /** Shows why there is nothing to draw (e.g. the server keeps no sample store). */
  unavailable(message) {
    this.rows = [];
    this.shown = '';
    this.message = message;
    this.render();
  }

  xOf(i) {
    return M.left + ((i + 0.5) / Math.max(1, this.rows.length)) * (W - M.left - M.right);
  }

  hover(event) {
    if (this.rows.length === 0) return;
    const box = this.svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * W;
    const frac = (x - M.left) / (W - M.left - M.right);
    const i = Math.min(this.rows.length - 1, Math.max(0, Math.floor(frac * this.rows.length)));
    if (i !== this.hoverIndex) {
      this.hoverIndex = i;
      this.render();
    }
  }

  render() {
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of this.rows) {
      lo = Math.min(lo, v.reward.ci95?.low ?? v.reward.mean);
      hi = Math.max(hi, v.reward.ci95?.high ?? v.reward.mean);
      const adv = replayAdvantage(v);
      if (adv !== undefined) {
        lo = Math.min(lo, adv);
        hi = Math.max(hi, adv);
      }
    }
    const { py, nodes } = yAxis(yTicksWith(lo, hi, this.spec.include));
    this.figure.dataset.replayPoints = '0';
    if (this.rows.length === 0) {
      nodes.push(emptyNote(this.message));
    } else {
      const first = this.rows[0];
      const last = this.rows[this.rows.length - 1];
      const ends =
        this.rows.length === 1
          ? [[0, first, 'middle']]
          : [
              [0, first, 'start'],
              [this.rows.length - 1, last, 'end'],
            ];
      for (const [i, v, anchor] of ends) {
        const label = svgEl('text', { class: 'tick', x: this.xOf(i), y: H - 6, 'text-anchor': anchor });
        label.textContent = `v${v.policy_version}`;
        nodes.push(label);
      }
      if (this.hoverIndex !== null) nodes.push(cursorLine(this.xOf(this.hoverIndex)));
      const d = this.rows.map((v, i) => `${i === 0 ? 'M' : 'L'}${this.xOf(i).toFixed(1)},${py(v.reward.mean).toFixed(1)}`).join('');
      nodes.push(svgEl('path', { class: 'line faint', d, stroke: PALETTE[0] }));
      const replayed = this.rows.map((v, i) => [i, replayAdvantage(v)]).filter(([, a]) => a !== undefined);
      if (replayed.length > 0) {
        const dr = replayed.map(([i, a], k) => `${k === 0 ? 'M' : 'L'}${this.xOf(i).toFixed(1)},${py(a).toFixed(1)}`).join('');
        nodes.push(svgEl('path', { class: 'line', d: dr, stroke: PALETTE[1], 'stroke-dasharray': '4 3' }));
      }
      this.figure.dataset.replayPoints = String(replayed.length);
      const cap = Math.min(4, ((W - M.left - M.right) / this.rows.length) * 0.3);
      this.rows.forEach((v, i) => {
        const x = this.xOf(i).toFixed(1);
        const ci = v.reward.ci95;
        if (ci) {
          const [a, b] = [py(ci.low).toFixed(1), py(ci.high).toFixed(1)];
          nodes.push(svgEl('line', { class: 'whisker', x1: x, x2: x, y1: a, y2: b, stroke: PALETTE[0] }));
          for (const y of [a, b])
            nodes.push(svgEl('line', { class: 'whisker', x1: this.xOf(i) - cap, x2: this.xOf(i) + cap, y1: y, y2: y, stroke: PALETTE[0] }));
        }
        const serving = v.policy_version === this.serving;
        nodes.push(
          svgEl('circle', {
            class: serving ? 'mean serving' : 'mean',
            cx: x,
            cy: py(v.reward.mean).toFixed(1),
            r: serving ? 3.4 : 2.6,
            fill: PALETTE[0],
          }),
        );
      });
    }
    this.svg.replaceChildren(...nodes);
    this.figure.dataset.points = String(this.rows.length);
    this.renderLegend();
  }

  renderLegend() {
    const v = this.rows[this.hoverIndex ?? this.rows.length - 1];
    if (v === undefined) {
      this.legend.replaceChildren();
      return;
    }
    const item = (label, value) => {
      const span = document.createElement('span');
      span.className = 'item';
      const b = document.createElement('b');
      b.textContent = value;
      span.append(document.createTextNode(`${label} `), b);
      return span;
    };
    const at = document.createElement('span');
    at.className = this.hoverIndex === null ? 'item' : 'item at';
    at.textContent = `v${v.policy_version}${v.policy_version === this.serving ? ' (serving)' : ''}`;
    this.legend.replaceChildren(
      at,
      item('mean', `${formatNumber(v.reward.mean)}${formatInterval(v.reward.ci95)}`),
      item('n', String(v.judged_turns)),
      item('−1', formatNumber(v.negative_rate.rate)),
      item('hint', formatNumber(v.hint_rate.rate)),
      ...(replayAdvantage(v) !== undefined ? [item('replay adv', formatNumber(replayAdvantage(v)))] : []),
    );
  }
}
