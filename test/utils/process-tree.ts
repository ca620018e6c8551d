import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/*
 * What the kernel knows about a service's processes (Linux /proc): which processes a cluster
 * primary has forked, their environment, and which of them hold a client's connection.
 */

/** The processes whose parent is `pid`. */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return children.sort((a, b) => a - b);
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function environOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** Of `pids`, those holding an established TCP connection whose local port is `port` (a served client). */
export function pidsWithConnectionsOn(pids: number[], port: number): Set<number> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 01 is ESTABLISHED; field 9 the socket's inode.
      if (parseInt(fields[1].split(':')[1], 16) === port && fields[3] === '01') inodes.add(fields[9]);
    }
  }
  const holders = new Set<number>();
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) holders.add(pid);
    }
  }
  return holders;
}
