import { Row } from './load';

const fixed = (value: number | null, digits = 0) => (value === null || Number.isNaN(value) ? '–' : value.toFixed(digits));

/** The result table, in Markdown so it can be pasted into docs/performance.md as is. */
export function renderTable(rows: Row[]): string {
  const baseline = new Map<number, number>();
  for (const row of rows) {
    if (row.scenario.startsWith('GET /v1/health') && row.connections !== null && row.requestsPerSecond !== null) {
      baseline.set(row.connections, row.requestsPerSecond);
    }
  }
  const header = ['scenario', 'conns', 'req/s', '% of health', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MB', 'PSS MB', 'RSS/PSS by process', 'CPU ms/req'];
  const lines = rows.map((row) => {
    if (row.failure) return [row.scenario, fixed(row.connections), `ERROR: ${row.failure.replace(/\s+/g, ' ').replace(/\|/g, '\\|')}`, '', '', '', '', '', '', '', ''];
    const base = row.connections === null ? undefined : baseline.get(row.connections);
    const share = base && row.requestsPerSecond !== null && !row.scenario.startsWith('webhooks') ? `${((100 * row.requestsPerSecond) / base).toFixed(0)}%` : '';
    return [
      row.scenario,
      fixed(row.connections),
      fixed(row.requestsPerSecond),
      share,
      fixed(row.p50, 1),
      fixed(row.p99, 1),
      fixed(row.errors),
      fixed(row.peakRssMb),
      fixed(row.peakPssMb ?? null),
      (row.byProcess ?? []).map((p) => `${fixed(p.rssMb)}/${fixed(p.pssMb)}`).join(' + '),
      fixed(row.cpuMsPerRequest ?? null, 2),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [format(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(format)].join('\n');
}
