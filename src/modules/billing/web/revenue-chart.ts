/** The drawing of the home page's "paid revenue per day" chart: plain numbers for the SVG template. */
export interface RevenueChart {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  /** Horizontal grid lines with their value (0, half, top of the scale). */
  ticks: Array<{ y: number; label: string }>;
  bars: Array<{
    date: string;
    /** The API's number, as `data-amount`. */
    amount: number;
    orders: number;
    x: number;
    y: number;
    width: number;
    height: number;
    today: boolean;
  }>;
  /** Dates written under the axis: the first day, the middle, and "Today". */
  labels: Array<{ x: number; text: string; anchor: 'start' | 'middle' | 'end' }>;
}

const WIDTH = 720;
const HEIGHT = 260;
/** The scale's values are written above their grid lines, inside the plot: no margin to guess. */
const PLOT = { left: 8, top: 34, right: WIDTH - 8, bottom: HEIGHT - 36 };

/**
 * One bar per day of the report (the last one is today, drawn in its own colour and labelled),
 * on a scale from 0 to a round number at or above the best day; a day without sales keeps a
 * 1-unit stub so every day stays visible.
 */
export function revenueChart(
  days: Array<{ date: string; gross: number; orders_paid: number }>,
  today: string,
  format: (amount: number) => string,
): RevenueChart {
  const top = niceCeiling(Math.max(0, ...days.map((d) => d.gross)));
  const plotHeight = PLOT.bottom - PLOT.top;
  const slot = (PLOT.right - PLOT.left) / Math.max(1, days.length);
  const gap = Math.min(4, slot * 0.2);
  const bars = days.map((day, index) => {
    const height = top > 0 ? Math.max(1, (day.gross / top) * plotHeight) : 1;
    return {
      date: day.date,
      amount: day.gross,
      orders: day.orders_paid,
      x: round(PLOT.left + index * slot + gap / 2),
      y: round(PLOT.bottom - height),
      width: round(slot - gap),
      height: round(height),
      today: day.date === today,
    };
  });
  const ticks = [0, top / 2, top].map((value) => ({
    y: round(PLOT.bottom - (top > 0 ? (value / top) * plotHeight : 0)),
    label: format(value),
  }));
  const centre = (index: number) => round(PLOT.left + (index + 0.5) * slot);
  const labels: RevenueChart['labels'] = [];
  if (days.length) {
    labels.push({ x: PLOT.left, text: shortDate(days[0].date), anchor: 'start' });
    if (days.length > 2)
      labels.push({
        x: centre(Math.floor(days.length / 2)),
        text: shortDate(days[Math.floor(days.length / 2)].date),
        anchor: 'middle',
      });
    const last = days[days.length - 1];
    labels.push({ x: PLOT.right, text: last.date === today ? 'Today' : shortDate(last.date), anchor: 'end' });
  }
  return { width: WIDTH, height: HEIGHT, plot: PLOT, ticks: top > 0 ? ticks : ticks.slice(0, 1), bars, labels };
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above `value` (0 stays 0). */
export function niceCeiling(value: number): number {
  if (value <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const SHORT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** `2026-03-01` → `1 Mar`. */
function shortDate(date: string): string {
  return SHORT.format(new Date(`${date}T00:00:00.000Z`));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
