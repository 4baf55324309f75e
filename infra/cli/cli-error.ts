/** A CLI failure with a machine code, printed as JSON on stderr. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
