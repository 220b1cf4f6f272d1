/**
 * An undo that left something as it should not be, with the read that shows it: the ledger
 * enters it to be read once more before the report (stillLeft), like an object not removed.
 */
export class LeftBehind extends Error {
  constructor(
    message: string,
    readonly stillThere: () => Promise<boolean>,
  ) {
    super(message);
  }
}
