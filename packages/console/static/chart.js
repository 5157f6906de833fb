// The 30-day APY chart: uPlot (served from node_modules by the API), daily mean with min–max.
import uPlot from '/console/vendor/uPlot.esm.js';

let plot;

/** Draws the points of an svc-apy-history.v1 document into `container` (replacing the last). */
export function drawApyHistory(container, history) {
  const days = history.points.map((point) => Date.parse(`${point.day}T00:00:00Z`) / 1000);
  const pct = (key) =>
    history.points.map((point) => (point[key] === null ? null : point[key] / 100));
  const data = [days, pct('meanBps'), pct('minBps'), pct('maxBps')];
  const width = Math.max(320, Math.min(container.clientWidth || 720, 960));
  const options = {
    width,
    height: 240,
    scales: { x: { time: true } },
    axes: [{}, { label: 'APY %', values: (_u, ticks) => ticks.map((tick) => tick.toFixed(2)) }],
    series: [
      {},
      { label: 'mean', stroke: '#2563eb', width: 2, spanGaps: true, points: { show: true } },
      { label: 'min', stroke: '#94a3b8', dash: [4, 4], spanGaps: true },
      { label: 'max', stroke: '#94a3b8', dash: [4, 4], spanGaps: true },
    ],
  };
  plot?.destroy();
  container.replaceChildren();
  plot = new uPlot(options, data, container);
  return plot;
}
