import { e14 } from "../e14/state.js";
import { HttpError, type Fault } from "../http.js";
import { liveUser } from "../routes/e14/users.js";

/** The faults of the group users (suites/users/): each makes a check of it fail, for the reason its `because` names. */
export const usersFaults: Fault[] = [
  {
    name: "users-search-empty-term-crashes",
    breaks: "E14 rule 6 (the users list supports a search query); Errors 2",
    description: "search= with an empty term reaches the full-text query as an empty string, which raises: the list answers 500",
    because: { "users.list.search": "no-5xx" },
    operations: ["listUsers"],
    handle: ({ req, next }) => {
      if (req.query.get("search") === "") throw new HttpError(500, "full-text query: empty search term");
      return next();
    },
  },
  {
    name: "users-search-first-page-only",
    breaks: "E14 rule 6 (the users list supports a search query); Pagination styles 2",
    description: "search filters the first page only: a page asked with after is cut from the unfiltered list",
    because: { "users.list.search": "only-matches" },
    operations: ["listUsers"],
    handle: ({ req, next }) => {
      if (req.query.get("after")) req.query.delete("search");
      return next();
    },
  },
  {
    name: "users-deleted-still-listed",
    breaks: "E14 rule 6 (bulk DELETE; the users list)",
    description:
      "a user a bulk DELETE removed reads 404, yet the users list (whole and searched) still holds it: the list reads the table without the deleted flag",
    because: { "users.bulk.deleted-not-listed": "deleted-listed" },
    operations: ["listUsers"],
    handle: ({ app, next }) => {
      // The list is built synchronously inside next(): the deleted users are live for its reading only.
      const deleted = [...e14(app.store).users.values()].filter((a) => a.deleted);
      for (const a of deleted) a.deleted = false;
      try {
        return next();
      } finally {
        for (const a of deleted) a.deleted = true;
      }
    },
  },
  {
    name: "users-long-name-crashes",
    breaks: "E14 rule 6 (user administration); Errors 2",
    description: "a user's name longer than its VARCHAR(255) column reaches the database, whose error is answered 500 instead of a refusal",
    because: { "users.create.name-kept": "no-5xx" },
    operations: ["createUser"],
    handle: ({ req, next }) => {
      const body = req.body as Record<string, unknown> | undefined;
      if (["firstName", "lastName"].some((k) => typeof body?.[k] === "string" && (body[k] as string).length > 255))
        throw new HttpError(500, "value too long for type character varying(255)");
      return next();
    },
  },
  {
    name: "users-name-latin1-column",
    breaks: "E14 rule 6 (user administration)",
    description: "a user's names are stored in a Latin-1 column: letters outside it (日本語, ✓) read back as ?",
    because: { "users.create.name-kept": "user-name-as-sent" },
    operations: ["createUser"],
    handle: ({ req, next }) => {
      const body = req.body as Record<string, unknown> | undefined;
      for (const k of ["firstName", "lastName"]) if (typeof body?.[k] === "string") body[k] = (body[k] as string).replace(/[^\x00-\xff]/g, "?");
      return next();
    },
  },
  {
    name: "users-search-word-starts",
    breaks: "E14 rule 6 (the users list supports a search query)",
    description:
      "search is a word index: a record matches when one of its words (runs of letters and digits) starts with the term, so a user's whole email (alice@example.com) finds nobody while its first word (alice) does",
    because: { "users.list.search": "match-listed" },
    behaviour: {
      searchMatches: (values, term) =>
        !term ||
        values.some(
          (v) =>
            typeof v === "string" &&
            v
              .toLowerCase()
              .split(/[^\p{L}\p{N}]+/u)
              .some((w) => w.startsWith(term.toLowerCase())),
        ),
    },
  },
  {
    name: "users-bulk-unknown-fails-all",
    breaks: "E14 rule 6 (per-user failures)",
    description: "a bulk user action naming one missing user fails whole with a 404",
    because: { "users.bulk.per-user-failures": "per-user-answer" },
    operations: ["bulkUserAction"],
    handle: async ({ req, app, next }) => {
      const admins = e14(app.store).users;
      const before = new Map([...admins].map(([id, a]) => [id, { ...a }]));
      const reply = await next();
      const unknown = (reply.body as { failed: { userId: number; error: { status: number } }[] }).failed.find((f) => f.error.status === 404);
      if (!unknown) return reply;
      // Nothing is applied: every user's record is put back as it was.
      for (const id of [...admins.keys()]) before.has(id) ? Object.assign(admins.get(id)!, before.get(id)) : admins.delete(id);
      throw new HttpError(404, `user ${unknown.userId} not found`);
    },
  },
  {
    name: "users-bulk-stops-at-first-missing",
    breaks: "E14 rule 6 (per-user failures)",
    description: "a bulk user action stops at the first missing user: it is reported, the users after it are neither applied nor reported",
    because: { "users.bulk.per-user-failures": "others-applied" },
    operations: ["bulkUserAction"],
    handle: ({ req, app, next }) => {
      const ids = req.body?.userIds;
      const first = Array.isArray(ids) ? ids.findIndex((id: number) => !liveUser(app, id)) : -1;
      if (first >= 0) req.body = { ...req.body, userIds: ids.slice(0, first + 1) };
      return next();
    },
  },
  {
    name: "users-bulk-forbidden-applies",
    breaks: "E14 rule 6 (user administration)",
    description: "any caller may apply bulk user actions: the read-only caller's DEACTIVATE is applied",
    because: { "users.bulk.forbidden-not-applied": "refused" },
    behaviour: { administersUsers: () => true },
  },
  {
    name: "users-bulk-duplicate-twice",
    breaks: "E14 rule 6 (bulk actions with per-user failures)",
    description: "a user named twice in a bulk action is applied once, and the second entry is reported as a per-user failure",
    because: { "users.bulk.duplicate-once": "no-duplicate-failure" },
    operations: ["bulkUserAction"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || !Array.isArray(req.body?.userIds)) return body;
      const twice = (req.body.userIds as number[]).filter((id, i, all) => all.indexOf(id) !== i);
      return {
        ...body,
        failed: [...body.failed, ...twice.map((userId) => ({ userId, error: { status: 409, message: `user ${userId} was already handled in this request` } }))],
      };
    },
  },
  {
    name: "users-bulk-forbidden-reported-yet-applied",
    breaks: "E14 rule 6 (bulk actions with per-user failures)",
    description: "a caller without the admin permission gets every user of its bulk action reported as a 403 failure, but the action is applied",
    because: { "users.bulk.forbidden-not-applied": "not-applied" },
    behaviour: { administersUsers: () => true },
    operations: ["bulkUserAction"],
    respond: ({ status, body, req }) => {
      if (status !== 200 || req.user.permissions.has("AuditLogManage")) return body;
      return {
        ...body,
        succeeded: [],
        failed: [
          ...body.failed,
          ...body.succeeded.map((userId: number) => ({ userId, error: { status: 403, message: "user administration needs an admin" } })),
        ],
      };
    },
  },
];
