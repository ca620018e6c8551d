import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/*
 * CPU and memory of the whole service: the process the benchmark started and, in cluster mode
 * (WEB_CONCURRENCY > 1), the workers it forked. Linux /proc only; elsewhere the figures are null.
 */

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces): [0] is field 3. */
function statFields(pid: number): string[] | null {
  const stat = read(`/proc/${pid}/stat`);
  return stat === null ? null : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  // Each thread lists the children it forked; Node forks from its main thread, but ask them all.
  return tasks.flatMap((tid) =>
    (read(`/proc/${pid}/task/${tid}/children`) ?? '').split(' ').filter(Boolean).map(Number),
  );
}

/** `root` and its descendants that are alive now, root first. */
export function processTree(root: number): number[] {
  const tree: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    if (statFields(pid) === null) continue;
    tree.push(pid);
    queue.push(...childrenOf(pid));
  }
  return tree;
}

/**
 * CPU seconds (user + system) the tree has used so far. Each process counts its own time
 * (stat fields 14 and 15) and that of its children that have ended and been waited for (16 and
 * 17), so a worker that dies during a run keeps its share. Clock ticks are 100 a second on Linux.
 */
export function treeCpuSeconds(root: number): number | null {
  let ticks = 0;
  let seen = false;
  for (const pid of processTree(root)) {
    const fields = statFields(pid);
    if (!fields) continue;
    seen = true;
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return seen ? ticks / 100 : null;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(read(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) : null;
}

/** Proportional set size: each shared page divided among the processes that map it. */
function pssKb(pid: number): number | null {
  const match = /^Pss:\s+(\d+) kB/m.exec(read(`/proc/${pid}/smaps_rollup`) ?? '');
  return match ? Number(match[1]) : null;
}

export interface TreeMemory {
  /** Sum over the processes of each one's peak RSS, MB. */
  peakRssMb: number | null;
  /** Highest sum of PSS over the processes seen in one sample, MB. */
  peakPssMb: number | null;
  /** Each process's peak RSS and peak PSS in MB, the started process first. */
  byProcess: Array<{ rssMb: number; pssMb: number | null }>;
}

/**
 * Peak memory of the service during one run. RSS counts the node binary and shared libraries in
 * every process, so the RSS sum over a cluster overstates what the machine gives it; PSS shares
 * those pages out and sums to the real footprint.
 *
 * Per process, the kernel's RSS high-water mark (VmHWM) is reset at the start by writing 5 to
 * clear_refs, and RSS is also polled every 50 ms, for kernels or containers where the reset is not
 * allowed. PSS is sampled every 500 ms (smaps_rollup walks the page tables: too costly at 50 ms).
 * The tree is looked up again at each PSS sample, so a worker forked during the run is counted.
 */
export class TreeMemorySampler {
  private pids: number[] = [];
  private readonly polledMaxKb = new Map<number, number>();
  private readonly hwmReset = new Set<number>();
  private readonly pssMaxKb = new Map<number, number>();
  private peakPssKb = 0;
  private rssTimer?: NodeJS.Timeout;
  private pssTimer?: NodeJS.Timeout;

  constructor(private readonly root: number) {}

  start(): void {
    this.refresh();
    this.rssTimer = setInterval(() => this.pollRss(), 50);
    this.pssTimer = setInterval(() => {
      this.refresh();
      this.samplePss();
    }, 500);
    this.rssTimer.unref();
    this.pssTimer.unref();
  }

  stop(): TreeMemory {
    clearInterval(this.rssTimer);
    clearInterval(this.pssTimer);
    this.pollRss();
    this.samplePss();
    const byProcess: TreeMemory['byProcess'] = [];
    for (const [pid, polled] of this.polledMaxKb) {
      const hwm = this.hwmReset.has(pid) ? (statusKb(pid, 'VmHWM') ?? 0) : 0;
      const peak = Math.max(polled, hwm);
      const pss = this.pssMaxKb.get(pid);
      if (peak) byProcess.push({ rssMb: peak / 1024, pssMb: pss ? pss / 1024 : null });
    }
    const sum = byProcess.reduce((total, p) => total + p.rssMb, 0);
    return { peakRssMb: sum || null, peakPssMb: this.peakPssKb ? this.peakPssKb / 1024 : null, byProcess };
  }

  private refresh(): void {
    this.pids = processTree(this.root);
    for (const pid of this.pids) {
      if (this.polledMaxKb.has(pid)) continue;
      this.polledMaxKb.set(pid, statusKb(pid, 'VmRSS') ?? 0);
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
        this.hwmReset.add(pid);
      } catch {
        // not allowed here: the polled maximum stands alone
      }
    }
  }

  private pollRss(): void {
    for (const pid of this.pids) {
      this.polledMaxKb.set(pid, Math.max(this.polledMaxKb.get(pid) ?? 0, statusKb(pid, 'VmRSS') ?? 0));
    }
  }

  private samplePss(): void {
    let total = 0;
    for (const pid of this.pids) {
      const pss = pssKb(pid) ?? 0;
      this.pssMaxKb.set(pid, Math.max(this.pssMaxKb.get(pid) ?? 0, pss));
      total += pss;
    }
    this.peakPssKb = Math.max(this.peakPssKb, total);
  }
}
