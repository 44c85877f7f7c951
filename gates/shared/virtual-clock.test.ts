/**
 * A probe's waits must not depend on the machine's load: a runner that leaves the sandbox child unscheduled for a
 * while must not turn a good module's drain into "never resolves" (the queue gate's good-own-timeout.ts failed so
 * on a machine at load 10). The OS's neglect is simulated by blocking the event loop.
 */
import { describe, expect, it } from "vitest";
import { loopDeadline, real, virtualSleep, withVirtualClock } from "./virtual-clock.js";

/** The process does not run for `ms` (as when the OS schedules others). */
function unscheduled(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

/** Work that needs a few turns of real timers after it starts. */
const shortWork = async (): Promise<"work"> => {
  for (let i = 0; i < 3; i++) await new Promise((r) => real.setTimeout(r, 2));
  return "work";
};

describe("loopDeadline: a wait in the process's own time", () => {
  it("does not end before work that needs a few ticks when the process was not run for longer than the wait", async () => {
    const deadline = loopDeadline(100);
    const work = shortWork();
    unscheduled(350);
    const first = await Promise.race([work, deadline.done.then(() => "deadline" as const)]);
    deadline.cancel();
    expect(first).toBe("work");
  });

  it("a wall-clock timer, in the same situation, ends first (what the queue probe did before)", async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wall = new Promise<"deadline">((r) => {
      timer = real.setTimeout(() => r("deadline"), 100) as ReturnType<typeof setTimeout>;
    });
    const work = shortWork();
    unscheduled(350);
    const first = await Promise.race([work, wall]);
    real.clearTimeout(timer);
    expect(first).toBe("deadline");
  });

  it("an idle wait ends after about its time; cancel stops it", async () => {
    const started = performance.now();
    await loopDeadline(100).done;
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(5_000);
    const cancelled = loopDeadline(30);
    cancelled.cancel();
    const after = await Promise.race([
      cancelled.done.then(() => "ended"),
      new Promise((r) => real.setTimeout(() => r("still waiting"), 120)),
    ]);
    expect(after).toBe("still waiting");
  });
});

describe("drive on the virtual clock: a budget of turns, not of real time", () => {
  it("settles a scenario whose timer fired while the process was not run for long", async () => {
    const why = await withVirtualClock(async (drive) => {
      let settled = false;
      void virtualSleep(10_000).then(() => {
        unscheduled(700);
        void virtualSleep(1).then(() => {
          settled = true;
        });
      });
      return drive(() => settled, { horizonMs: 60_000, turns: 1_000 });
    });
    expect(why).toBe("settled");
  });

  it("gives up after its turns when nothing settles, and at the horizon when time runs past it", async () => {
    const never = await withVirtualClock((drive) => drive(() => false, { horizonMs: 60_000, turns: 200 }));
    expect(never).toBe("turns");
    const late = await withVirtualClock(async (drive) => {
      void virtualSleep(120_000);
      return drive(() => false, { horizonMs: 60_000, turns: 1_000 });
    });
    expect(late).toBe("horizon");
  });
});
