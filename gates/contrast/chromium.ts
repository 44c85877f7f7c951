/**
 * contrast, the browser half: a page (an `.html` module, or the page generated for a `.css` module by
 * `page.ts`) is loaded in Debian's headless Chromium **inside the sandbox** (bubblewrap through
 * `spawnLimited`'s confinement: its own pid/net/ipc/uts namespaces, the sandbox uid, a private size-capped /tmp
 * holding a fresh profile, no network), with page JavaScript disabled (`--blink-settings=scriptEnabled=false`
 * and `Emulation.setScriptExecutionDisabled` before the navigation), spoken to over `--remote-debugging-pipe`
 * (no TCP port). The styles are read through the DevTools `DOM` and `CSS` domains, never from the page
 * (`page-reader.ts`).
 *
 * This module makes no decision: what it returns is the observation (`observation.ts`), validated against
 * `CASCADE_OBSERVATION_SCHEMA` and judged by `cascade.ts` in skillgate's process. Chromium never runs
 * unconfined: without bubblewrap, or without Chromium, the answer is an error the judge fails on.
 */
import { accessSync, chmodSync, constants, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { scratchDir } from "../../src/sandbox/compile.js";
import { scrubbedEnv } from "../../src/sandbox/env.js";
import { isolation } from "../../src/sandbox/isolation/detect.js";
import type { ConfineLimits } from "../../src/sandbox/isolation/types.js";
import { spawnLimited } from "../../src/sandbox/process.js";
import { PipeCdp } from "./cdp.js";
import type { CascadeObservation, PageSpec } from "./observation.js";
import { readPage, type Sheet } from "./page-reader.js";

/** Where Debian/Ubuntu put the browser binary itself (`/usr/bin/chromium` is a launcher script reading /etc). */
export const CHROMIUM_BINARIES = ["/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser"];
/**
 * The browser binary itself, when it is elsewhere (Google Chrome's `/opt/google/chrome/chrome`, a Chromium
 * unpacked into a folder): read from skillgate's own environment, which the runner's workflow sets (the base
 * branch's; a PR that changes it is a policy change), never from the repository. A launcher script or a snap
 * wrapper does not start inside the sandbox.
 */
export const CHROMIUM_PATH_VARIABLE = "SKILLGATE_CHROMIUM";
const CHROMIUM_INSTALL_HINT = `install Debian's headless-capable Chromium (apt-get install chromium), or set ${CHROMIUM_PATH_VARIABLE} to a Chromium or Chrome binary (not a launcher script): the gate computes the CSS cascade with it`;

/** Where to look: the configured binary only, when set; else Debian's and Ubuntu's. */
export function chromiumCandidates(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const configured = env[CHROMIUM_PATH_VARIABLE];
  return configured ? [configured] : CHROMIUM_BINARIES;
}

/**
 * Time and memory of one Chromium run unless the gate run sets its own (`--timeout`, `--memory`). Chromium's
 * processes share pages: the summed RSS the limit watches overcounts them.
 */
const CHROMIUM_LIMITS = Object.freeze({ timeoutMs: 60_000, memoryMb: 2048 });
const CHROMIUM_CONFINE_LIMITS: ConfineLimits = Object.freeze({
  processes: 1024, // threads count: Chromium starts a few hundred
  fileSizeBytes: 64 * 1024 * 1024,
  tmpBytes: 256 * 1024 * 1024, // the profile
  openFiles: 4096,
  // Replaced by the run's memory cap (`runLimits`: RLIMIT_DATA per process, the cgroup over the tree and /tmp).
  dataBytes: CHROMIUM_LIMITS.memoryMb * 1024 * 1024,
  memoryBytes: CHROMIUM_LIMITS.memoryMb * 1024 * 1024,
});
/** Elements with text checked at most; a page with more fails (`coverage`) rather than being checked in part. */
export function findChromium(candidates: readonly string[] = chromiumCandidates()): string | undefined {
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Flags of the confined browser: headless, no GPU, nothing that phones home, no extension, no script. */
function chromiumArgs(profile: string): string[] {
  return [
    "--headless",
    "--no-sandbox", // its own sandbox needs namespaces bubblewrap does not give it; bubblewrap is the boundary
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-breakpad",
    "--disable-dev-shm-usage",
    // One process (no zygote, renderer in the browser process): about half the start-up time on a loaded
    // machine (12 s against 22 s measured at load 15 on 2 cores). Without Chromium's own sandbox a renderer
    // exploit reaches the browser process either way; bubblewrap is the boundary.
    "--single-process",
    "--no-zygote",
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
    "--blink-settings=scriptEnabled=false",
    "--mute-audio",
    `--user-data-dir=${profile}`,
    "--remote-debugging-pipe",
    "about:blank",
  ];
}

/** Writes a generated page into a fresh folder of the scratch area readable by the sandbox uid. */
export function writePage(html: string): string {
  const dir = mkdtempSync(join(scratchDir(), "contrast-page-"));
  chmodSync(dir, 0o755);
  const file = join(dir, "page.html");
  writeFileSync(file, html, { mode: 0o644 });
  return file;
}

/**
 * Confines, launches, observes and tears down Chromium; never throws. A browser that ended on its own (a crash,
 * not the time or memory limit) is started once more: a page that crashes it every time still fails.
 */
export async function observeCascade(
  page: PageSpec,
  limits: { timeoutMs?: number; memoryMb?: number } = {},
  candidates: readonly string[] = chromiumCandidates(),
): Promise<CascadeObservation> {
  const started = Date.now();
  const timeoutMs = limits.timeoutMs ?? CHROMIUM_LIMITS.timeoutMs;
  const memoryMb = limits.memoryMb ?? CHROMIUM_LIMITS.memoryMb;
  const first = await observeOnce(page, timeoutMs, memoryMb, candidates);
  if (!first.crashed) return first.obs;
  const left = timeoutMs - (Date.now() - started);
  return left > 1000 ? (await observeOnce(page, left, memoryMb, candidates)).obs : first.obs;
}

async function observeOnce(
  page: PageSpec,
  timeoutMs: number,
  memoryMb: number,
  candidates: readonly string[],
): Promise<{ obs: CascadeObservation; crashed?: boolean }> {
  const binary = findChromium(candidates);
  if (!binary)
    return {
      obs: {
        kind: "chromium-missing",
        error: `Chromium is not installed (${candidates.join(", ")}): ${CHROMIUM_INSTALL_HINT}`,
      },
    };
  const iso = await isolation();
  if (iso.level === "none")
    return {
      obs: {
        kind: "chromium-sandbox",
        error: `refusing to run Chromium on untrusted CSS/HTML outside the sandbox (${iso.reason}): apt-get install bubblewrap`,
      },
    };
  if (iso.level === "uid+namespaces")
    for (const dir of page.readable)
      if ((statSync(dir).mode & 0o005) !== 0o005)
        return {
          obs: {
            kind: "chromium",
            error: `the folder ${dir} is closed to the sandbox's uid; it must be readable by others (chmod o+rx)`,
          },
        };
  const cdp = new PipeCdp();
  // Inside: the browser's fd 3 (commands) is our stdin, its fd 4 (answers) is the result channel (our fd 3).
  const shim = 'exec 4>&3 3<&0 0</dev/null; exec "$@"';
  const running = spawnLimited({
    command: "/bin/sh",
    args: ["-c", shim, "sh", binary, ...chromiumArgs("/tmp/profile")],
    cwd: "/tmp",
    env: scrubbedEnv({ HOME: "/tmp", TMPDIR: "/tmp", DBUS_SESSION_BUS_ADDRESS: "disabled:" }),
    onStdin: (s) => cdp.attach(s),
    resultChannel: true,
    onResultChunk: (c) => cdp.feed(c),
    timeoutMs,
    rssLimitMb: memoryMb,
    confine: {
      readOnly: [dirname(binary), ...page.readable, "/etc/fonts"].filter((p) => exists(p)),
      limits: CHROMIUM_CONFINE_LIMITS,
    },
  });
  let ended = false;
  const outcome = running.then((o) => {
    ended = true;
    cdp.close(new Error("Chromium ended"));
    return o;
  });
  try {
    return { obs: await collect(cdp, page) };
  } catch (err) {
    const o = ended ? await outcome : undefined;
    const why = o?.killedFor
      ? o.killedFor === "timeout"
        ? `took longer than ${timeoutMs} ms (killed)`
        : `used more than ${memoryMb} MiB (killed)`
      : o?.spawnError
        ? `could not start: ${o.spawnError}`
        : (err as Error).message;
    const tail = o?.stderr
      ?.split("\n")
      .filter((l) => l.trim() && !/dbus|bus\.cc/i.test(l))
      .slice(-2)
      .join(" ");
    return {
      obs: { kind: "chromium", error: `Chromium ${why}${tail ? ` (${tail.slice(0, 300)})` : ""}` },
      crashed: ended && !o?.killedFor && !o?.spawnError,
    };
  } finally {
    cdp.close(new Error("observation over"));
    await outcome;
  }
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

async function collect(cdp: PipeCdp, page: PageSpec): Promise<CascadeObservation> {
  const targets = (await cdp.send("Target.getTargets")) as {
    targetInfos: { targetId: string; type: string }[];
  };
  const target = targets.targetInfos.find((t) => t.type === "page");
  const targetId = target
    ? target.targetId
    : ((await cdp.send("Target.createTarget", { url: "about:blank" })) as { targetId: string }).targetId;
  const { sessionId } = (await cdp.send("Target.attachToTarget", { targetId, flatten: true })) as {
    sessionId: string;
  };
  const send = (m: string, p: Record<string, unknown> = {}) => cdp.send(m, p, sessionId);
  await send("Emulation.setScriptExecutionDisabled", { value: true });
  await send("Page.enable");
  await send("DOM.enable");
  const sheets = new Map<string, Sheet>();
  const sheetEvents = listenSheets(cdp, sessionId, sheets);
  await send("CSS.enable");
  const loaded = cdp.waitFor("Page.loadEventFired", sessionId);
  const url = pathToFileURL(page.file).href;
  const nav = (await send("Page.navigate", { url })) as { errorText?: string };
  if (nav.errorText) throw new Error(`could not load ${page.file}: ${nav.errorText}`);
  await loaded;
  // The listener stays on until the page is read: a sheet's header may arrive after the load event (the wait in
  // `matched` counts on it; stopping here left a CI run without the rule's file:line).
  try {
    return await readPage(send, cdp, page, url, sheets);
  } finally {
    sheetEvents.stop();
  }
}

function listenSheets(cdp: PipeCdp, sessionId: string, sheets: Map<string, Sheet>): { stop(): void } {
  const stop = cdp.on((e) => {
    if (e.method !== "CSS.styleSheetAdded" || e.sessionId !== sessionId) return;
    const h = e.params.header as Record<string, unknown> | undefined;
    if (h && typeof h.styleSheetId === "string")
      sheets.set(h.styleSheetId, {
        sourceURL: String(h.sourceURL ?? ""),
        startLine: Number(h.startLine) || 0,
        startColumn: Number(h.startColumn) || 0,
        isInline: h.isInline === true,
      });
  });
  return { stop };
}
