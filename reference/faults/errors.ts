import { HttpError, type Fault } from "../http.js";
import { itemRefs } from "../routes/item-refs.js";
import { isObject, wellFormedRef } from "./kit/properties.js";
import { cleanBehaviour } from "../behaviour.js";

/** A policy that answers the handler's 400 refusals (those `when` takes) with a validator's error object ({code, message}), not a string. */
const errorObjectOn400 =
  (code: string, when: (err: HttpError) => boolean = () => true): NonNullable<Fault["handle"]> =>
  async ({ next }) => {
    try {
      return await next();
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 400 || !when(err)) throw err;
      return { status: 400, body: { error: { code, message: err.message } } };
    }
  };

/** The faults of the group errors (suites/errors/): each makes a check of it fail, for the reason its `because` names. */
export const errorsFaults: Fault[] = [
  {
    name: "bulk-delete-answers-500-after-deleting",
    breaks: "Errors 2",
    description: "the bulk delete the suite's cleanup uses deletes what it is asked to, then answers 500",
    feeds: ["upsert.create.absent-slug-creates"],
    because: { "errors.no-5xx.every-exchange": "server-error" },
    operations: ["bulkDeleteWorkspaceItems"],
    respond: ({ status, body }) => {
      if (status === 200 && Array.isArray(body?.deleted) && body.deleted.length) throw new HttpError(500, "internal error");
      return body;
    },
  },
  {
    name: "bulk-move-error-as-object",
    breaks: "Errors 1",
    description: "a refused bulk move's error is a validator's object ({path, message}), not a string message",
    feeds: ["bulk-move.request.malformed-rejected"],
    because: { "errors.body.error-is-text": "error-text" },
    behaviour: {
      requestErrorReply: (spec, status, body) =>
        spec === "E12" && typeof body.error === "string"
          ? { status, body: { ...body, error: { path: "body.items", message: body.error } } }
          : cleanBehaviour.requestErrorReply(spec, status, body),
    },
  },
  {
    name: "unparsable-body-refused-as-text",
    breaks: "Errors 1",
    description: "a body that is not valid JSON is refused with the framework's plain-text 400 (`Bad Request`), not a JSON error",
    feeds: ["tokens.negative.broken-body"],
    because: { "errors.body.error-is-text": "error-not-json" },
    behaviour: {
      requestErrorReply: (spec, status, body) =>
        status === 400 && body.error === "the body is not valid JSON"
          ? { status, text: "Bad Request", headers: { "content-type": "text/plain; charset=utf-8" } }
          : cleanBehaviour.requestErrorReply(spec, status, body),
    },
  },
  {
    name: "made-up-cursor-error-as-object",
    breaks: "Errors 1",
    description: "a cursor list refuses a cursor it never gave with an error object ({code, message}); every other error is a string",
    feeds: ["errors.no-5xx.invalid-reads"],
    because: { "errors.body.error-is-text": "error-text" },
    operations: ["listWorkbooks", "listEnvVars", "listEnvironments"],
    handle: errorObjectOn400("invalid_cursor", (err) => /cursor/.test(err.message)),
  },
  {
    name: "e14-list-query-error-as-object",
    breaks: "Errors 1",
    description:
      "the E14 lists under /api/v1 (regions, users, groups, user attributes, folders, reports) refuse a bad query parameter with a validator's error object ({code, message}); E1-E13 give a string",
    feeds: ["pagination.cursor.first-below-minimum-rejected"],
    because: { "errors.body.error-is-text": "error-text" },
    operations: ["listRegions", "listUsers", "listGroups", "listUserAttributes", "listFolders", "listReports"],
    handle: errorObjectOn400("invalid_query"),
  },
  {
    name: "bulk-move-malformed-entries-dropped",
    breaks: "E12 (items of {type, id})",
    description: "item entries that are not {type: WORKBOOK|REPORT|FOLDER, id: integer} are dropped silently and the rest of the batch moves",
    because: { "errors.negative.implied-rules": "client-error" },
    behaviour: { bulkMoveItems: (body) => itemRefs(isObject(body) && Array.isArray(body.items) ? { ...body, items: body.items.filter(wellFormedRef) } : body) },
  },
  {
    name: "upsert-long-name-crashes",
    breaks: "Errors 2; E11",
    description: "a workbook name longer than 255 characters overflows its column: the upsert answers 500",
    because: { "errors.no-5xx.valid-writes": "server-error" },
    behaviour: {
      upsertFields: (current, sent) => {
        if ((sent.name?.length ?? 0) > 255) throw new Error("value too long for column name (255)");
        return cleanBehaviour.upsertFields(current, sent);
      },
    },
  },
  {
    name: "bulk-move-item-type-loosely-read",
    breaks: "E12 (items of {type, id}); Resources / Workspace item reference",
    description: "an item type is read loosely: a trailing S or separator is dropped, so WORKBOOKS or FOLDER_ moves the item as a WORKBOOK or FOLDER",
    because: { "errors.negative.implied-rules": "client-error" },
    behaviour: {
      bulkMoveItems: (body) =>
        itemRefs(
          isObject(body) && Array.isArray(body.items)
            ? {
                ...body,
                items: body.items.map((i: unknown) =>
                  isObject(i) && typeof i.type === "string" ? { ...i, type: i.type.replace(/(?<=[A-Z])(S|_|-)$/, "") } : i,
                ),
              }
            : body,
        ),
    },
  },
  {
    name: "page-parameter-overflow",
    breaks: "Errors 2",
    description: "an integer page parameter (offset, limit, first, folderId) beyond 1000 either way crashes the list handler: 500",
    because: { "errors.no-5xx.valid-reads": "server-error", "errors.no-5xx.invalid-reads": "server-error" },
    behaviour: {
      belowMinimum: (value, min) => {
        if (Math.abs(value) > 1000) throw new Error(`page arithmetic overflow at ${value}`);
        return value < min;
      },
    },
  },
  {
    name: "upsert-unicode-slug-crashes",
    breaks: "Errors 2; E11 rule 1",
    description: "a slug with a character outside ASCII crashes the slug normalisation: 500",
    because: { "errors.no-5xx.valid-writes": "server-error" },
    behaviour: {
      normaliseSlug: (slug) => {
        if (/[^\x00-\x7f]/.test(slug)) throw new Error("slug normalisation expects ASCII");
        return cleanBehaviour.normaliseSlug(slug);
      },
    },
  },
];
