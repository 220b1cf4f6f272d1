import { invariant, type Observed } from "../../core/run/invariants.js";
import { matchPath } from "../../core/api/match.js";
import { MASK, SECRET_MARKERS as MARKERS, operation } from "../../core/api/operations.js";

/** The spec writes the markers in upper case: that is the MUST (any case is env-vars.mask.any-case, SHOULD). */
const secretNamed = (name: string) => MARKERS.some((m) => name.includes(m));
/** E13 and PUT env-vars share the path: every answer there lists variables. */
const atVars = (path: string) => matchPath(operation("listEnvVars").path, path) !== undefined;
const atSettings = (path: string) => matchPath(operation("getDeploymentSettings").path, path) !== undefined;
/**
 * A value is looked for in every answer only when it cannot turn up by chance: long and made of
 * many characters (generators/domain.ts secretValue draws such ones). Shorter ones ("toString")
 * are still judged where they are listed (masked or not).
 */
const traceable = (v: string) => [...v].length >= 16 && new Set(v).size >= 8 && v !== MASK;

/**
 * The secret values the run set, traceable ones only, and which of them an answer's text may
 * hold: those whose core (their longest run of letters and digits, which JSON writes as they are)
 * the text holds, all of them where the text has a \u escape. Most answers hold none: one pattern
 * of every core tells so in one pass, where a search per value took a tenth of a second a run.
 */
class TracedSecrets {
  private readonly names = new Map<string, string>();
  private readonly cores = new Map<string, string>();
  private pattern?: RegExp;
  private coreless = false;

  set(value: string, name: string): void {
    this.names.set(value, name);
    // A core too short to tell anything is not looked for: such a value is a candidate for every answer.
    const core = (value.match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), "");
    this.cores.set(value, core.length >= 4 ? core : "");
    this.pattern = undefined;
  }

  /** The values (with their variables' names) that `text` may hold, `excluded` aside. */
  candidates(text: string, excluded: Set<string>): [string, string][] {
    if (!this.names.size) return [];
    if (!this.pattern) {
      const cores = [...new Set(this.cores.values())];
      this.pattern = new RegExp(cores.filter(Boolean).join("|") || "(?!)");
      this.coreless = cores.includes("");
    }
    const escaped = text.includes("\\u");
    const hit = escaped || this.pattern.test(text);
    if (!hit && !this.coreless) return [];
    return [...this.names].filter(([value]) => {
      const core = this.cores.get(value)!;
      return !excluded.has(value) && (core === "" || escaped || (hit && text.includes(core)));
    });
  }
}

/**
 * The strings of an answer that are values: never an object's keys, nor the name of a {name, value}
 * entry (a variable's name may hold any text, a secret's among it, without leaking anything), nor
 * the value of a {name, value} entry that is exactly what the run set for that plain variable: a
 * plain value may contain a secret value (a property draws both from one generator), and showing
 * it as set shows nothing the run did not put there in the clear. An answer that is not JSON is one value.
 */
function valuesOf(x: Observed, setAsPlain: (name: string, value: string) => boolean): string[] {
  if (!x.isJson) return [x.text];
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") {
      const entry = v as { name?: unknown; value?: unknown };
      const named = "name" in v && "value" in v;
      const shownAsSet = named && typeof entry.name === "string" && typeof entry.value === "string" && setAsPlain(entry.name, entry.value);
      for (const [k, child] of Object.entries(v)) if (!(named && k === "name") && !(shownAsSet && k === "value")) visit(child);
    }
  };
  visit(x.body);
  return out;
}

/** The variables an answer lists ({name, value} entries of items, data or a bare array), as E13 and the PUT answer show them. */
function variablesIn(body: any): { name: string; value: unknown }[] {
  const lists = Array.isArray(body) ? [body] : [body?.items, body?.data, body?.env_variables].filter(Array.isArray);
  return lists.flat().filter((v: any) => typeof v?.name === "string");
}

/** The variables a PUT env-vars request set (facts.md: `{"env_variables": [{name, value}]}`). */
function variablesSent(x: Observed): { name: string; value: string }[] {
  if (x.method !== "PUT" || !atVars(x.url.pathname) || x.status >= 300 || x.requestBody === undefined) return [];
  try {
    const list = JSON.parse(x.requestBody)?.env_variables;
    return Array.isArray(list) ? list.filter((v: any) => typeof v?.name === "string" && typeof v?.value === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The strings the run sent in other requests (body leaves and path segments of the traceable
 * length, not whole bodies): bounded, so that a long run does not hold its traffic.
 */
class SentStrings {
  private readonly strings = new Set<string>();
  /**
   * Requests not yet taken apart: only a value that looks leaked asks what was sent, which most
   * runs never do, so each request is split and parsed when first needed (a tenth of this
   * invariant's time was taking apart every request).
   */
  private pending: { url: URL; requestBody?: string }[] = [];
  add(x: Observed): void {
    if (this.strings.size >= MAX_SENT) return;
    this.pending.push({ url: x.url, requestBody: x.requestBody });
    if (this.pending.length >= MAX_PENDING) this.takeApart();
  }
  holds(value: string): boolean {
    this.takeApart();
    for (const s of this.strings) if (s.includes(value)) return true;
    return false;
  }
  private takeApart(): void {
    for (const x of this.pending) {
      if (this.strings.size >= MAX_SENT) break;
      for (const part of x.url.pathname.split("/")) this.keep(safeDecode(part));
      for (const v of x.url.searchParams.values()) this.keep(v);
      if (x.requestBody !== undefined) for (const v of leaves(parsed(x.requestBody))) this.keep(v);
    }
    this.pending = [];
  }
  private keep(s: string): void {
    if (s.length >= 8 && s.length <= MAX_SENT_LENGTH) this.strings.add(s);
  }
}
const MAX_SENT = 100_000;
/** Requests held before they are taken apart all the same: what is held stays small. */
const MAX_PENDING = 1_000;
const MAX_SENT_LENGTH = 4096;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function leaves(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) out.push(k), leaves(x, out);
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const secretMasking = invariant({
  id: "env-vars.mask.every-answer",
  spec: "Resources / Environment variable; E13; E14 (settings: secrets excluded)",
  level: "MUST",
  title:
    "No answer carries the value of a secret-named variable: every page and the deprecated data copy of E13 and the PUT env-vars answer mask it as [ENCRYPTED], and no answer (deployment settings included) holds a secret value the run set",
  applicable: "environment variables or deployment settings (a 2xx of GET or PUT env-vars, or of GET settings)",
  watch: () => {
    // What the run knows: the values it set for secret-named variables. A value the run also sent
    // as something else (a plain variable, a workbook name a property drew from the same seed) may
    // come back as that: it is not traceable. Only traceable values are kept, each judged once as
    // it is set (judged again per answer, that was a third of this invariant's time).
    const traced = new TracedSecrets();
    const plain = new Set<string>();
    // Each plain variable with every value the run set for it: an answer may show any of them (a later PUT, a stale page).
    const plainSet = new Map<string, Set<string>>();
    const setAsPlain = (name: string, value: string) => plainSet.get(name)?.has(value) === true;
    const sent = new SentStrings();
    return (x) => {
      const set = variablesSent(x);
      if (!set.length) sent.add(x);
      for (const v of set) {
        if (secretNamed(v.name)) {
          if (traceable(v.value)) traced.set(v.value, v.name);
          continue;
        }
        plain.add(v.value);
        if (!plainSet.has(v.name)) plainSet.set(v.name, new Set());
        plainSet.get(v.name)!.add(v.value);
      }
      const listsVariables = x.status < 300 && x.isJson && atVars(x.url.pathname);
      const isSettings = x.status < 300 && atSettings(x.url.pathname);
      if (listsVariables) {
        const unmasked = variablesIn(x.body).filter((v) => secretNamed(v.name) && v.value !== MASK);
        if (unmasked.length)
          return {
            reason: "secret-unmasked",
            message: "a secret-named variable is listed with a value other than [ENCRYPTED]",
            expected: `${MASK} for ${unmasked.map((v) => v.name).join(", ")}`,
            got: unmasked.map((v) => `${v.name}: ${typeof v.value === "string" ? "a value in clear" : JSON.stringify(v.value)}`).join("; "),
            hide: unmasked.map((v) => v.value).filter((v): v is string => typeof v === "string"),
          };
      }
      const candidates = traced.candidates(x.text, plain);
      const values = candidates.length ? valuesOf(x, setAsPlain) : [];
      const leaked = candidates.filter(([value]) => values.some((v) => v.includes(value)) && !sent.holds(value));
      if (leaked.length)
        return {
          reason: "secret-leaked",
          message: `the answer of ${x.method} ${x.url.pathname} holds the value of a secret-named variable the run set`,
          expected: "no secret value in any answer",
          got: `the value of ${leaked.map(([, name]) => name).join(", ")}`,
          hide: leaked.map(([value]) => value),
        };
      return listsVariables || isSettings ? "held" : undefined;
    };
  },
});
