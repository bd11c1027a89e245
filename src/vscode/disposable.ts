// A disposable that owns other disposables (GitLens / VS Code's own pattern): everything a class
// creates goes through `_register`, and one `dispose` releases it all in reverse order.

export interface DisposableLike {
  dispose(): unknown;
}

export class Disposable implements DisposableLike {
  private readonly disposables: DisposableLike[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected _register<T extends DisposableLike>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.disposables.push(disposable);
    return disposable;
  }

  /** Wraps an unsubscribe function. */
  protected _registerFn(fn: () => void): void {
    this._register({ dispose: fn });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // keep releasing the rest
      }
    }
  }
}
