/**
 * What a check that holds a race at the barrier declares it shares (core/model/needs.ts): the door's
 * connections for races (core/transport/http.ts) hold one race's requests at a time, so two such
 * checks never overlap, and their --repeat copies run one after another.
 */
export const RACE_SHARE = "write:race-connections";

/**
 * A last-byte barrier for requests that must reach the server at once (E11 rule 5's races). Each
 * request of a group sends its head and all of its body but the last byte, then waits until every
 * request of the group has done so; the last bytes then go out in one turn of the event loop. The
 * server holds every request whole in the same instant, however loaded the machine: the race is
 * made, not hoped for from requests merely started together.
 */
export class Together {
  private arrived = 0;
  private fallback: NodeJS.Timeout | undefined;
  /** Each party's release, in the order the parties were made (the order the caller sent them). */
  private readonly releases: (() => void)[] = [];
  private isOpen = false;

  /**
   * `parties`: the requests of the group. `boundMs`: how long the first to arrive waits for the
   * rest at most; only a server or proxy that queues requests behind others (fewer connections
   * than parties) ever meets it, and the race is then as loose as sending them at once.
   */
  constructor(
    private readonly parties: number,
    private readonly boundMs: number,
  ) {}

  /** Releases every party in the order they were made: their last bytes leave, and reach the server, in the order the caller sent them. */
  private readonly open = () => {
    if (this.isOpen) return;
    this.isOpen = true;
    clearTimeout(this.fallback);
    for (const release of this.releases) release();
  };

  /** One party's place: `arrive` when its request has sent all but its last byte (or will not send at all); idempotent. */
  party(): { arrive: () => void; opened: Promise<void> } {
    let here = false;
    const opened = new Promise<void>((resolve) => this.releases.push(resolve));
    if (this.isOpen) this.releases.at(-1)!();
    return {
      arrive: () => {
        if (here) return;
        here = true;
        this.arrived++;
        if (this.arrived >= this.parties) afterTurns(2 * this.parties + 2, this.open);
        else this.fallback ??= setTimeout(this.open, this.boundMs).unref();
      },
      opened,
    };
  }
}

/**
 * Runs `then` after `turns` turns of the event loop. A request's last-but-one byte is in the
 * kernel when its party arrives, but a server in this process (the bundled reference) accepts
 * and reads a new connection a turn after the last: this many turns let it read every head
 * first (twice as many, for margin), counted in turns, not time, so that load does not matter.
 */
function afterTurns(turns: number, then: () => void): void {
  if (turns <= 0) then();
  else setImmediate(() => afterTurns(turns - 1, then));
}

/** The body of a request held at the barrier: all but the last byte, then the last once the group is all there. */
export function heldBody(text: string, party: ReturnType<Together["party"]>): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  return (async function* () {
    try {
      yield bytes.subarray(0, bytes.length - 1);
      // Asked for the next chunk: the first is written to the socket.
      party.arrive();
      await party.opened;
      yield bytes.subarray(bytes.length - 1);
    } finally {
      party.arrive();
    }
  })();
}
