// Time charts (uPlot, drawn on a canvas) that follow their box's width and the system theme. The
// y axis is as wide as its longest label, so 20,000 is never cut to "0,000"; time labels keep
// X_LABEL_SPACE apart so they never overlap, even on a phone.

import uPlot from '/ui/vendor/uPlot.esm.js';
import { num } from '/ui/dom.js';

/** Height of a chart, in CSS pixels. */
export const CHART_HEIGHT = 200;

/** Narrowest chart, in CSS pixels. */
export const MIN_CHART_WIDTH = 240;

/** Least room between two time labels' starts, in CSS pixels (a label is about 55 px wide). */
export const X_LABEL_SPACE = 90;

/** The font the axes are drawn in, also used to measure their labels. */
export const AXIS_FONT = '12px system-ui, sans-serif';

/**
 * Room kept on each side of the plot for half of the widest time label ("12:07:35 AM" is about
 * 75 px), which uPlot centres on its tick, in CSS pixels: the first and last are not cut.
 */
export const EDGE_ROOM = 44;

/** The tick length and the gap between tick and label that uPlot draws, in CSS pixels. */
const TICK_AND_GAP = 10 + 5;

let measurer = null;

/** The width of a label drawn in AXIS_FONT, in CSS pixels. */
export function labelWidth(text) {
  if (!measurer) measurer = document.createElement('canvas').getContext('2d');
  measurer.font = AXIS_FONT;
  return measurer.measureText(text).width;
}

/** The y axis's width for these labels: the longest label, the tick and gap, and a margin. */
function yAxisSize(self, values) {
  if (!values || values.length === 0) return EDGE_ROOM;
  const widest = Math.max(...values.map((v) => labelWidth(String(v))));
  return Math.max(EDGE_ROOM, Math.ceil(widest + TICK_AND_GAP + 8));
}

/**
 * The time axis's range: the data's, but around a single reading the five minutes before it and
 * one after (uPlot would give one point a range of 86,400 units, which in seconds is years).
 */
function timeRange(self, min, max) {
  const xs = self.data && self.data[0];
  if (min === null || max === null || !xs || xs.length === 0) {
    const now = Date.now() / 1000;
    return [now - 300, now];
  }
  return xs.length === 1 ? [xs[0] - 300, xs[0] + 60] : [min, max];
}

const CLOCK = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const CLOCK_SECONDS = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * Time labels on one line, the clock only (the charts span 15 minutes): uPlot's default adds a
 * date line under the first label, which the chart's left edge cut. Seconds show when ticks are
 * under a minute apart.
 */
function timeLabels(self, splits, axisIdx, space, increment) {
  const format = increment < 60 ? CLOCK_SECONDS : CLOCK;
  return splits.map((s) => format.format(new Date(s * 1000)));
}

function cssColor(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/**
 * A uPlot time chart in box. series: [{label, color, dash}]. Answers {set(data), close()}; data is
 * [[x in s], [y], ...]. The box is marked data-keep (page updates leave it alone) and holds the
 * uPlot instance as box.lineupPlot.
 */
export function chart(box, title, series) {
  box.dataset.keep = '';
  let plot = null;
  let data = [[]].concat(series.map(() => []));
  const width = () => Math.max(MIN_CHART_WIDTH, box.clientWidth - 8);
  const make = () => {
    const axisColor = cssColor('--muted');
    const gridColor = cssColor('--grid');
    const axis = { stroke: axisColor, font: AXIS_FONT, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor } };
    const options = {
      title,
      width: width(),
      height: CHART_HEIGHT,
      scales: { x: { time: true, range: timeRange } },
      padding: [null, EDGE_ROOM, null, null],
      axes: [
        { ...axis, space: X_LABEL_SPACE, values: timeLabels },
        { ...axis, size: yAxisSize, values: (self, splits) => splits.map((v) => num(v)) },
      ],
      series: [{}].concat(series.map((s) => ({ label: s.label, stroke: cssColor(s.color), width: 2, dash: s.dash }))),
      legend: { live: false },
    };
    if (plot) plot.destroy();
    plot = new uPlot(options, data, box);
    box.lineupPlot = plot;
  };
  const resize = new ResizeObserver(() => {
    if (plot) plot.setSize({ width: width(), height: CHART_HEIGHT });
  });
  resize.observe(box);
  const theme = window.matchMedia('(prefers-color-scheme: dark)');
  const rethemed = () => make();
  theme.addEventListener('change', rethemed);
  make();
  return {
    set(next) {
      data = next;
      plot.setData(next);
    },
    close() {
      resize.disconnect();
      theme.removeEventListener('change', rethemed);
      if (plot) plot.destroy();
    },
  };
}
