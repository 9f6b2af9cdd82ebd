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
  if (!values || values.length === 0) return 40;
  const widest = Math.max(...values.map((v) => labelWidth(String(v))));
  return Math.ceil(widest + TICK_AND_GAP + 8);
}

/**
 * The time axis's range: the data's, widened around a single reading (uPlot would stretch one point
 * over years) to the five minutes before it and one after.
 */
function timeRange(self, min, max) {
  if (min === null || max === null) {
    const now = Date.now() / 1000;
    return [now - 300, now];
  }
  return min === max ? [min - 300, max + 60] : [min, max];
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
      axes: [
        { ...axis, space: X_LABEL_SPACE },
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
