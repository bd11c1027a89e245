// The last part of a child's output, kept to say why it failed (a sim or a run can print a lot).

const KEEP = 64 * 1024;

export class OutputTail {
  private text = '';

  add(chunk: Buffer | string): void {
    this.text += String(chunk);
    if (this.text.length > 2 * KEEP) this.text = this.text.slice(-KEEP);
  }

  toString(): string {
    return this.text.length > KEEP ? `…${this.text.slice(-KEEP)}` : this.text;
  }
}
