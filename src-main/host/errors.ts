/** An error the UI shows as `{code, message}` (see toRpcError). */
export class HostError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}
