/** A vote file that cannot be read as asked: the message names the file and the line or row. */
export class VoteFileError extends Error {
  override readonly name = 'VoteFileError';
  constructor(
    readonly file: string,
    /** "line 12", "element 3", "row 7", or undefined for the whole file. */
    readonly location: string | undefined,
    readonly detail: string,
  ) {
    super(location ? `${file}, ${location}: ${detail}` : `${file}: ${detail}`);
  }
}
