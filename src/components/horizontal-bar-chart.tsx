import { BarChart } from '@mui/x-charts/BarChart';

/** Per bar: room for its label's line. */
const BAND_HEIGHT = 24;
/** The value axis below the bars and the legend above them. */
const AXES_HEIGHT = 64;

export interface HorizontalBarChartProps {
  /** One per bar, top to bottom, each shown whole. */
  labels: string[];
  values: number[];
  /** The series' name, in the legend and the tooltip. */
  seriesLabel: string;
  color?: string;
  /** A value in the tooltip. */
  valueFormatter?: (value: number) => string;
  /** A value on the axis' ticks. */
  tickFormatter?: (value: number) => string;
  hideLegend?: boolean;
}

/**
 * Bars that lie down, each label on a line of its own and never cut (upright bars show 8 of 19
 * level names, and end a team's name 'Equatorial Gui…'). The label axis is as
 * wide as its longest label; the chart as tall as its bars.
 */
export function HorizontalBarChart({ labels, values, seriesLabel, color, valueFormatter, tickFormatter, hideLegend = false }: HorizontalBarChartProps) {
  return (
    <BarChart
      layout="horizontal"
      height={labels.length * BAND_HEIGHT + AXES_HEIGHT}
      yAxis={[{ scaleType: 'band', data: labels, width: 'auto', tickLabelInterval: () => true }]}
      // Counts and amounts are whole: a ranking of a few votes would otherwise tick 0.1, 0.2…
      xAxis={[{ valueFormatter: tickFormatter, tickMinStep: 1 }]}
      series={[{ data: values, label: seriesLabel, color, valueFormatter: valueFormatter && ((value) => valueFormatter(value ?? 0)) }]}
      hideLegend={hideLegend}
    />
  );
}
