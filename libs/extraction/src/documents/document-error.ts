/**
 * A document that arrived whole but cannot be read (an encrypted or image-only PDF, a Word file
 * that is not a zip, a zip past its bounds): the message is a sentence for a per-URL error.
 */
export class DocumentUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentUnreadable';
  }
}
