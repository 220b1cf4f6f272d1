import type { Fault } from "../http.js";

/**
 * Writes whose answer disagrees with what they stored: the state read back is right, the Workbook
 * the write returns is not (E10, E11 Response; E12 moved).
 */
export const writeAnswerFaults: Fault[] = [
  {
    name: "clone-answer-meta-empty",
    breaks: "E10 (Response: the new Workbook)",
    description: "the clone is stored with the source's meta, but its answer shows meta {}",
    because: { "clone.answer.is-the-stored-clone": "answer-as-stored" },
    routes: ["E10"],
    respond: ({ status, body }) => (status === 200 && body?.id !== undefined ? { ...body, meta: {} } : body),
  },
  {
    name: "clone-answer-allow-embed-copied",
    breaks: "E10 rule 3",
    description: "the cloned dashboard is stored with allowEmbed false, but the clone's answer shows the source's true",
    because: { "clone.embed.allow-embed-false": "allow-embed" },
    routes: ["E10"],
    respond: ({ status, body }) =>
      status === 200 && body?.publishedDashboard ? { ...body, publishedDashboard: { ...body.publishedDashboard, allowEmbed: true } } : body,
  },
  {
    name: "upsert-answer-echoes-sent-meta",
    breaks: "E11 (Response: Workbook); E11 rule 2",
    description: "an update stores meta merged, but answers with the meta sent, as if it had replaced the stored one",
    because: { "upsert.answer.is-the-stored-workbook": "answer-as-stored" },
    routes: ["E11"],
    respond: ({ status, body, req }) => (status === 200 && req.body?.meta && typeof req.body.meta === "object" ? { ...body, meta: req.body.meta } : body),
  },
  {
    name: "bulk-move-moved-shows-old-folder",
    breaks: "E12 (moved: Workbook records as the single-item move returns them)",
    description: "moved workbooks are stored in the destination, but moved shows them at the root, where they came from",
    because: { "bulk-move.response.moved-as-stored": "answer-as-stored" },
    routes: ["E12"],
    respond: ({ status, body }) =>
      status === 200 && Array.isArray(body?.moved) ? { ...body, moved: body.moved.map((m: any) => ({ ...m, folderId: null })) } : body,
  },
];
