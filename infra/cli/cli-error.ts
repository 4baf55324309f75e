/** A CLI failure with a machine code, printed as JSON on stderr. */
export class CliError extends Error {
  /** The usage of what was mistyped, for errors in the command line itself. */
  readonly usage?: string;

  constructor(
    readonly code: string,
    message: string,
    options: { usage?: string } = {},
  ) {
    super(message);
    this.usage = options.usage;
  }
}
