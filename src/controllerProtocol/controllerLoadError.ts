/** The user's controller cannot be compiled or loaded; the message says where (`file:line:col: error: …`). */
export class ControllerLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControllerLoadError';
  }
}
