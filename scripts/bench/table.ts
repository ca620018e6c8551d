import { Row } from './load';

const fixed = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);

/**
 * The result table, in Markdown so it can be pasted into docs/performance.md as is. Where the floor
 * server ran the same scenario, its req/s, p99 and CPU per request sit beside the service's, and
 * *share of floor* is the service's req/s over the floor's, measured seconds apart.
 */
export function renderTable(rows: Row[]): string {
  const baseline = new Map<number, number>();
  for (const row of rows) {
    if (row.scenario.startsWith('GET /v1/health') && row.connections !== null && row.requestsPerSecond !== null) {
      baseline.set(row.connections, row.requestsPerSecond);
    }
  }
  const header = [
    'scenario',
    'conns',
    'req/s',
    'p99 ms',
    'errors',
    'floor req/s',
    'floor p99 ms',
    'share of floor',
    'oversold',
    '% of health',
    'p50 ms',
    'peak RSS MB',
    'PSS MB',
    'RSS/PSS by process',
    'CPU ms/req',
    'floor CPU ms/req',
  ];
  const lines = rows.map((row) => {
    if (row.failure) {
      return [
        row.scenario,
        fixed(row.connections),
        `ERROR: ${row.failure.replace(/\s+/g, ' ').replace(/\|/g, '\\|')}`,
        ...header.slice(3).map(() => ''),
      ];
    }
    const base = row.connections === null ? undefined : baseline.get(row.connections);
    const share =
      base && row.requestsPerSecond !== null && !row.scenario.startsWith('webhooks')
        ? `${((100 * row.requestsPerSecond) / base).toFixed(0)}%`
        : '';
    const floor = row.floor && !row.floor.failure ? row.floor : undefined;
    const ofFloor =
      floor?.requestsPerSecond && row.requestsPerSecond !== null
        ? (row.requestsPerSecond / floor.requestsPerSecond).toFixed(2)
        : '';
    const oversold =
      row.oversold === undefined
        ? ''
        : `${fixed(row.oversold)}${floor?.oversold !== undefined ? ` (floor ${fixed(floor.oversold)})` : ''}`;
    return [
      row.scenario,
      fixed(row.connections),
      fixed(row.requestsPerSecond),
      fixed(row.p99, 1),
      fixed(row.errors),
      row.floor?.failure ? 'ERROR' : floor ? fixed(floor.requestsPerSecond) : '',
      floor ? fixed(floor.p99, 1) : '',
      ofFloor,
      oversold,
      share,
      fixed(row.p50, 1),
      fixed(row.peakRssMb),
      fixed(row.peakPssMb),
      (row.byProcess ?? []).map((p) => `${fixed(p.rssMb)}/${fixed(p.pssMb)}`).join(' + '),
      fixed(row.cpuMsPerRequest, 2),
      floor ? fixed(floor.cpuMsPerRequest, 2) : '',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [format(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(format)].join('\n');
}
