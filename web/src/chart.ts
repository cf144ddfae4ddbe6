// The price chart of a market page (lightweight-charts, loaded only when a market page opens): one
// line per outcome, with a marker on every point of the series, since a young market has few.
import {
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  type UTCTimestamp,
} from "lightweight-charts";

/** Distinct on light and dark backgrounds; a market has at most 8 outcomes. */
export const OUTCOME_COLOURS = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];

export type PricePoint = { timestamp: string } & Record<string, number | string>;

export function priceChart(container: HTMLElement, outcomes: string[]) {
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const chart: IChartApi = createChart(container, {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: "transparent" },
      textColor: dark ? "#d1d5db" : "#374151",
      fontFamily: "system-ui, sans-serif",
      // The logo comes with an inline <style> that the page's CSP refuses; the market page credits
      // the library in text instead, as its licence asks.
      attributionLogo: false,
    },
    grid: {
      vertLines: { color: dark ? "#1f2937" : "#eef0f3" },
      horzLines: { color: dark ? "#1f2937" : "#eef0f3" },
    },
    localization: { priceFormatter: (value: number) => `${(value * 100).toFixed(1)}%` },
    timeScale: { timeVisible: true, secondsVisible: false },
    handleScroll: false,
    handleScale: false,
  });
  const series: ISeriesApi<"Line">[] = outcomes.map((outcome, index) =>
    chart.addSeries(LineSeries, {
      title: outcome,
      color: OUTCOME_COLOURS[index % OUTCOME_COLOURS.length],
      lineWidth: 2,
      pointMarkersVisible: true,
      pointMarkersRadius: 3,
      priceLineVisible: false,
    }),
  );
  return {
    show(points: PricePoint[]) {
      outcomes.forEach((outcome, index) => {
        series[index]!.setData(
          points.map((point) => ({
            time: Math.floor(Date.parse(point.timestamp) / 1000) as UTCTimestamp,
            value: Number(point[outcome]),
          })),
        );
      });
      chart.timeScale().fitContent();
    },
    dispose: () => chart.remove(),
  };
}
